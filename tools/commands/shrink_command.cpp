// shrink_command.cpp: `bsp-check shrink TRACE`: the recorded failure is run again, then delta
// debugging (replay/shrink.hpp) drops chunks of its scheduling choices while a run guided by the
// choices left still fails the same way; the minimal run is recorded and its choices reported.
#include "tools/commands/shrink_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

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

// shrink's flags, as given.
struct ShrinkFlags {
  std::string trace_path, output;
  std::vector<std::string> program;  // after --: the program to run instead of the recorded one
  bool output_given = false;         // -o: named in the error when it cannot be written
  std::size_t max_runs = 2000;
  double timeout = 0;
  bool quiet = false;
  bool no_memory_check = false;
};

// shrink's command line into f; an exit status when it is not one to run.
std::optional<int> parse_shrink(const std::vector<std::string>& args, ShrinkFlags& f) {
  CLI::App app{
      "bsp-check shrink: reduce a failing trace's scheduling choices towards the default schedule (each\n"
      "process runs on while it can; queues and writes keep their order; hp operations land at the\n"
      "barrier) while the run still fails with the same rule, and report the choices that matter.\n"
      "\nUsage: bsp-check shrink [options] TRACE [-- PROGRAM ARGS...]",
      "bsp-check shrink"};
  app.add_option("TRACE", f.trace_path,
                 "a trace of a failing run; or an MPI run's records (PATH, or PATH.rank<K>, from trace=PATH), merged "
                 "into PATH first")
      ->required();
  app.add_option("-o,--output", f.output, "the minimal trace (default: TRACE with .min.trace)");
  app.add_option("--max-runs", f.max_runs, "give up reducing after this many runs (default 2000)")
      ->check(whole_number(1, 100000000));
  app.add_option("--timeout", f.timeout,
                 "seconds each run may take: " + option_help("timeout") +
                     "; give the recorded run's (its replay line shows it)")
      ->check(option_value("timeout"));
  app.add_flag("-q,--quiet", f.quiet, "no progress lines");
  app.add_flag("--no-memory-check", f.no_memory_check,
               "shrink an MPI run's records even where the ranks' data, added up, exceeds the memory available");
  app.add_option(
      "PROGRAM", f.program,
      "the program and its arguments (after --; an MPI run's records need the program built for the engine)");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  f.quiet = f.quiet || !isatty(STDERR_FILENO);  // the progress line (\r, erase) only on a terminal
  return std::nullopt;
}

// The recorded run's configuration (c), the program to run and where the minimal trace goes,
// checked before the first run; an exit status when they are not usable.
std::optional<int> prepare(ShrinkFlags& f, const char* version, trace::Reader& trace, RunConfig& c,
                           std::string& program) {
  if (!merge_rank_records(f.trace_path, !f.no_memory_check)) return 2;
  try {
    trace = trace::Reader::open(f.trace_path);
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return 2;
  }
  std::string error;
  if (!config_from_trace(trace.header(), f.trace_path, f.program, c, error)) {
    std::cerr << "bsp-check: error: " << error << "\n";
    return 2;
  }
  const std::optional<std::string> path = program_path(c.program);
  if (!path) return 2;
  program = *path;
  f.output_given = !f.output.empty();
  if (f.output.empty()) {
    std::filesystem::path p(f.trace_path);
    f.output = (p.parent_path() / (p.stem().string() + ".min.trace")).string();
  }
  for (const std::string* given : {&f.trace_path, &f.output})
    if (given->find(':') != std::string::npos) {
      std::cerr << "bsp-check: error: " << *given << ": a path with ':' cannot be passed in BSPCHECK_OPTIONS\n";
      return 2;
    }
  // Checked before the first run, as run checks --trace: a typo should not cost a whole shrink.
  if (const std::string why = why_not_writable(f.output); !why.empty()) {
    std::cerr << "bsp-check: error: " << (f.output_given ? "-o " : "") << f.output
              << ": cannot write the minimal trace: " << why << "\n";
    return 2;
  }
  c.version = version;
  c.options.timeout_seconds = f.timeout;
  return std::nullopt;
}

// After SIGINT, SIGTERM or SIGHUP: the run under way was killed and reaped; how far shrink got
// (the fewest choices `best` of `of` a failing run kept), and the exit status 128 + the signal.
int stopped(bool quiet, std::size_t runs, std::size_t best, std::size_t of) {
  if (!quiet) std::fputs("\r\033[K", stderr);
  std::fprintf(stderr, "bsp-check: shrink: interrupted by %s after %zu runs", interrupt_signal_name(), runs);
  if (of > 0 && best < of)
    std::fprintf(stderr, "; the smallest failing schedule found keeps %zu of the %zu choices (not recorded)", best, of);
  std::fputs("\n", stderr);
  return 128 + interrupt_signal();
}

// Which of the choices a script keeps (the others take their defaults).
std::vector<bool> kept_mask(std::size_t n, const std::vector<std::size_t>& kept) {
  std::vector<bool> keep(n, false);
  for (std::size_t i : kept) keep[i] = true;
  return keep;
}

// The rounds of delta debugging over the choices (replay/shrink.hpp): chunks are dropped while
// the run, guided by the script of the choices left, still fails the same way.
struct Rounds {
  std::vector<std::size_t> kept;
  std::size_t runs = 0;
  std::size_t best = 0;  // the fewest choices a failing run kept
  bool interrupted = false;
};
Rounds shrink_rounds(const RunConfig& guided, const std::string& program, int p,
                     const std::vector<trace::RecordedChoice>& choices, const std::string& target,
                     const ShrinkFlags& f) {
  Rounds rounds;
  rounds.best = choices.size();
  auto fails = [&](const std::vector<std::size_t>& kept) {
    trace::keep_choices(choices, kept_mask(choices.size(), kept)).save(guided.options.run.guide_file);
    const QuietRun q = run_quietly(guided, program, p, guided.seed);
    if (interrupted()) throw Interrupted{};  // killed half-way: neither passed nor failed
    ++rounds.runs;
    if (!f.quiet && rounds.runs % 25 == 0)
      std::fprintf(stderr, "\rbsp-check: shrink: %zu runs, %zu choices left...", rounds.runs, kept.size());
    if (q.passed) return false;
    const bool same = same_failure(target, q.failing_rules);
    if (same) rounds.best = std::min(rounds.best, kept.size());
    return same;
  };
  try {
    rounds.kept = trace::shrink_choices(choices.size(), fails, f.max_runs).kept;
  } catch (const Interrupted&) {
    rounds.interrupted = true;
  }
  return rounds;
}

}  // namespace

bool same_failure(const std::string& target, const std::vector<std::string>& failing_rules) {
  return target.empty() ? failing_rules.empty()
                        : std::find(failing_rules.begin(), failing_rules.end(), target) != failing_rules.end();
}

std::string shrink_report(const std::string& what, const std::vector<std::size_t>& kept,
                          const std::vector<trace::RecordedChoice>& choices,
                          const std::vector<trace::RecordedChoice>& minimal, std::size_t runs, std::size_t max_runs,
                          bool divergence) {
  std::string text = "bsp-check: shrink: the run fails " + what + " with " + std::to_string(kept.size()) + " of its " +
                     std::to_string(choices.size()) + " scheduling choices (" + std::to_string(runs) + " runs" +
                     (runs >= max_runs ? ", stopped at --max-runs" : "") + ")\n";
  if (kept.empty() && divergence)  // a divergence, kept with its reference
    text += "  no choice matters: the default schedule's output differs from the reference run's too\n";
  else if (kept.empty())
    // Not "independent of the schedule": the default order of writes or messages may be one of
    // the failing ones (a put collision whose default winner is the wrong one), and other seeds pass.
    text +=
        "  no choice matters: the default schedule (every choice at its default) fails too; other schedules "
        "may still pass (run --seeds to see)\n";
  // Choices are followed by position: the kept ones are described where the minimal run made
  // them (its own trace), which is where they matter.
  const auto made = [&](std::size_t i) -> const trace::RecordedChoice& {
    return i < minimal.size() ? minimal[i] : choices[i];
  };
  for (std::size_t i : kept) {
    const trace::RecordedChoice& ch = made(i);
    text += "  superstep " + std::to_string(ch.superstep) + ", after process " + std::to_string(ch.pid) + "'s " +
            ch.call + ": " + rt::choice_kind_text(ch.kind) + " -> " + std::to_string(ch.value) + "\n";
  }
  if (!kept.empty()) text += "  critical superstep: " + std::to_string(made(kept.back()).superstep) + "\n";
  return text;
}

int shrink_command(const std::vector<std::string>& args, const char* version) {
  ShrinkFlags f;
  if (auto status = parse_shrink(args, f)) return *status;
  trace::Reader trace;
  RunConfig c;
  std::string program;
  if (auto status = prepare(f, version, trace, c, program)) return *status;
  const int p = c.procs.front();
  // SIGINT, SIGTERM, SIGHUP: the run under way is killed and reaped, the temporary files go, and
  // the driver says how far it got and exits with 128 + the signal.
  install_interrupt_handlers();

  // The failure to keep: the first failing rule of the recorded run.
  RunConfig replay = c;
  replay.options.run.replay_file = f.trace_path;
  const QuietRun original = run_quietly(replay, program, p, c.seed);
  if (interrupted()) return stopped(f.quiet, 0, 0, 0);
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
  const Rounds rounds = shrink_rounds(guided, program, p, choices, target, f);
  if (rounds.interrupted) return stopped(f.quiet, rounds.runs, rounds.best, choices.size());
  if (!f.quiet) std::fputs("\r\033[K", stderr);

  // Record the minimal run.
  trace::keep_choices(choices, kept_mask(choices.size(), rounds.kept)).save(script);
  RunConfig record = guided;
  record.options.run.trace_file = f.output;
  const QuietRun final_run = run_quietly(record, program, p, c.seed);
  if (interrupted()) {  // the recording was cut short: it is not the minimal run
    std::error_code ignored;
    std::filesystem::remove(f.output, ignored);
    return stopped(f.quiet, rounds.runs, rounds.kept.size(), choices.size());
  }
  if (final_run.passed) {
    std::cerr
        << "bsp-check: error: the reduced schedule no longer fails when recorded; is the program deterministic?\n";
    return 1;
  }
  // The minimal run's own trace (never "minimal trace: FILE" without FILE).
  std::vector<trace::RecordedChoice> minimal;
  try {
    minimal = trace::recorded_choices(trace::Reader::open(f.output));
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: the minimal run's trace was not written: " << e.what() << "\n";
    return 2;
  }
  std::fputs(shrink_report(what, rounds.kept, choices, minimal, rounds.runs, f.max_runs,
                           !c.options.run.expected_output.empty())
                 .c_str(),
             stdout);
  std::printf("  minimal trace: %s\n  replay: %s\n", f.output.c_str(), replay_line(c.options, f.output).c_str());
  return 0;
}

}  // namespace bspcheck::cli
