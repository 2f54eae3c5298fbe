#include "tools/commands/shrink_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "replay/choice_script.hpp"
#include "replay/shrink.hpp"
#include "replay/trace_format.hpp"
#include "runtime/base/rng.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/launch/program_check.hpp"
#include "tools/commands/replay_command.hpp"
#include "tools/commands/run_command.hpp"
#include "tools/launch/temp_files.hpp"

namespace bspcheck::cli {

namespace {

// Thrown out of the search when a signal stopped it (tools/launch/interrupt.hpp): the run under way was
// killed, and no more start.
struct Interrupted {};

}  // namespace

int shrink_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{
      "bsp-check shrink: reduce a failing trace's scheduling choices towards the default schedule (each\n"
      "process runs on while it can; queues and writes keep their order; hp operations land at the\n"
      "barrier) while the run still fails with the same rule, and report the choices that matter.\n"
      "\nUsage: bsp-check shrink [options] TRACE",
      "bsp-check shrink"};
  std::string trace_path, output;
  std::size_t max_runs = 2000;
  double timeout = 0;
  bool quiet = false;
  app.add_option("TRACE", trace_path, "a trace of a failing run")->required();
  app.add_option("-o,--output", output, "the minimal trace (default: TRACE with .min.trace)");
  app.add_option("--max-runs", max_runs, "give up reducing after this many runs (default 2000)")
      ->check(whole_number(1, 100000000));
  app.add_option("--timeout", timeout,
                 "seconds each run may take: " + option_help("timeout") +
                     "; give the recorded run's (its replay line shows it)")
      ->check(option_value("timeout"));
  app.add_flag("-q,--quiet", quiet, "no progress lines");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  quiet = quiet || !isatty(STDERR_FILENO);  // the progress line (\r, erase) only on a terminal
  trace::Reader trace;
  try {
    trace = trace::Reader::open(trace_path);
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return 2;
  }
  RunConfig c;
  std::string error;
  if (!config_from_trace(trace.header(), trace_path, {}, c, error)) {
    std::cerr << "bsp-check: error: " << error << "\n";
    return 2;
  }
  const std::optional<std::string> program = program_path(c.program);
  if (!program) return 2;
  const bool output_given = !output.empty();
  if (output.empty()) {
    std::filesystem::path p(trace_path);
    output = (p.parent_path() / (p.stem().string() + ".min.trace")).string();
  }
  for (const std::string* path : {&trace_path, &output})
    if (path->find(':') != std::string::npos) {
      std::cerr << "bsp-check: error: " << *path << ": a path with ':' cannot be passed in BSPCHECK_OPTIONS\n";
      return 2;
    }
  // Checked before the first run, as run checks --trace: a typo should not cost a whole shrink.
  if (const std::string why = why_not_writable(output); !why.empty()) {
    std::cerr << "bsp-check: error: " << (output_given ? "-o " : "") << output
              << ": cannot write the minimal trace: " << why << "\n";
    return 2;
  }
  c.version = version;
  c.options.timeout_seconds = timeout;
  const int p = c.procs.front();
  // SIGINT, SIGTERM, SIGHUP: the run under way is killed and reaped, the temporary files go, and
  // the driver says how far it got and exits with 128 + the signal.
  install_interrupt_handlers();
  const auto stopped = [&](std::size_t runs, std::size_t best, std::size_t of) {
    if (!quiet) std::fputs("\r\033[K", stderr);
    std::fprintf(stderr, "bsp-check: shrink: interrupted by %s after %zu runs", interrupt_signal_name(), runs);
    if (of > 0 && best < of)
      std::fprintf(stderr, "; the smallest failing schedule found keeps %zu of the %zu choices (not recorded)", best,
                   of);
    std::fputs("\n", stderr);
    return 128 + interrupt_signal();
  };

  // The failure to keep: the first failing rule of the recorded run.
  RunConfig replay = c;
  replay.options.run.replay_file = trace_path;
  const QuietRun original = run_quietly(replay, *program, p, c.seed);
  if (interrupted()) return stopped(0, 0, 0);
  if (original.passed) {
    std::cerr << "bsp-check: the recorded run does not fail: nothing to shrink\n";
    return 1;
  }
  const std::string target = original.failing_rules.empty() ? "" : original.failing_rules.front();
  const std::string what = target.empty() ? "the same way (" + original.reason + ")" : "with " + target;

  const std::vector<trace::RecordedChoice> choices = trace::recorded_choices(trace);

  std::string script_template = temp_template("shrink");
  const int fd = mkstemp(script_template.data());
  if (fd < 0) {
    std::perror("bsp-check: mkstemp");
    return 2;
  }
  close(fd);
  const std::string script = script_template;
  struct RemovedAtEnd {  // the choice script goes whichever way the session ends
    std::string path;
    ~RemovedAtEnd() { std::remove(path.c_str()); }
  } script_file{script};
  RunConfig guided = c;
  guided.options.run.guide_file = script;
  std::size_t runs = 0;
  std::size_t best = choices.size();  // the fewest choices a failing run kept so far
  auto fails = [&](const std::vector<std::size_t>& kept) {
    std::vector<bool> keep(choices.size(), false);
    for (std::size_t i : kept) keep[i] = true;
    trace::keep_choices(choices, keep).save(script);
    const QuietRun q = run_quietly(guided, *program, p, c.seed);
    if (interrupted()) throw Interrupted{};  // killed half-way: neither passed nor failed
    ++runs;
    if (!quiet && runs % 25 == 0)
      std::fprintf(stderr, "\rbsp-check: shrink: %zu runs, %zu choices left...", runs, kept.size());
    if (q.passed) return false;
    const bool same = target.empty()
                          ? q.failing_rules.empty()
                          : std::find(q.failing_rules.begin(), q.failing_rules.end(), target) != q.failing_rules.end();
    if (same) best = std::min(best, kept.size());
    return same;
  };

  // Delta debugging over the choices (replay/shrink.hpp): drop chunks while the failure stays.
  std::vector<std::size_t> kept;
  try {
    kept = trace::shrink_choices(choices.size(), fails, max_runs).kept;
  } catch (const Interrupted&) {
    return stopped(runs, best, choices.size());
  }
  if (!quiet) std::fputs("\r\033[K", stderr);

  // Record the minimal run.
  std::vector<bool> keep(choices.size(), false);
  for (std::size_t i : kept) keep[i] = true;
  trace::keep_choices(choices, keep).save(script);
  RunConfig record = guided;
  record.options.run.trace_file = output;
  const QuietRun final_run = run_quietly(record, *program, p, c.seed);
  if (interrupted()) {  // the recording was cut short: it is not the minimal run
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    return stopped(runs, kept.size(), choices.size());
  }
  if (final_run.passed) {
    std::cerr
        << "bsp-check: error: the reduced schedule no longer fails when recorded; is the program deterministic?\n";
    return 1;
  }
  // The minimal run's own trace (never "minimal trace: FILE" without FILE).
  std::vector<trace::RecordedChoice> minimal;
  try {
    minimal = trace::recorded_choices(trace::Reader::open(output));
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: the minimal run's trace was not written: " << e.what() << "\n";
    return 2;
  }

  std::printf("bsp-check: shrink: the run fails %s with %zu of its %zu scheduling choices (%zu runs%s)\n", what.c_str(),
              kept.size(), choices.size(), runs, runs >= max_runs ? ", stopped at --max-runs" : "");
  if (kept.empty() && !c.options.run.expected_output.empty())  // a divergence, kept with its reference
    std::printf("  no choice matters: the default schedule's output differs from the reference run's too\n");
  else if (kept.empty())
    // Not "independent of the schedule": the default order of writes or messages may be one of
    // the failing ones (a put collision whose default winner is the wrong one), and other seeds pass.
    std::printf(
        "  no choice matters: the default schedule (every choice at its default) fails too; other schedules "
        "may still pass (run --seeds to see)\n");
  // Choices are followed by position: the kept ones are described where the minimal run made
  // them (its own trace), which is where they matter.
  for (std::size_t i : kept) {
    const trace::RecordedChoice& ch = i < minimal.size() ? minimal[i] : choices[i];
    std::printf("  superstep %llu, after process %d's %s: %s -> %llu\n", static_cast<unsigned long long>(ch.superstep),
                ch.pid, ch.call.c_str(), rt::choice_kind_text(ch.kind), static_cast<unsigned long long>(ch.value));
  }
  if (!kept.empty())
    std::printf(
        "  critical superstep: %llu\n",
        static_cast<unsigned long long>((kept.back() < minimal.size() ? minimal : choices)[kept.back()].superstep));
  std::printf("  minimal trace: %s\n  replay: %s\n", output.c_str(), replay_line(c.options, output).c_str());
  return 0;
}

}  // namespace bspcheck::cli
