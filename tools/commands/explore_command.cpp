// explore_command.cpp: `bsp-check explore`: a systematic or coverage-guided search over the
// choices that can change what the program sees, one run per schedule. The searches are library
// code (replay/bounded_search.hpp, replay/coverage_search.hpp); this file runs the program for
// them, compares each schedule's output with the default schedule's as `run --seeds` compares
// seeds, and keeps the trace of the first failing schedule.
#include "tools/commands/explore_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include <nlohmann/json.hpp>
#include <optional>

#include "bspcheck/rules.hpp"
#include "checker/finding_text.hpp"
#include "replay/bounded_search.hpp"
#include "replay/coverage_search.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/reports/explore_report.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/launch/proc_list.hpp"
#include "tools/launch/program_check.hpp"
#include "tools/commands/replay_command.hpp"
#include "tools/commands/run_command.hpp"
#include "tools/launch/temp_files.hpp"
#include "tools/launch/temp_janitor.hpp"

namespace bspcheck::cli {

namespace {

// A schedule of either search, as the session loop sees it: how to steer a run into it and how
// to describe it when it fails.
struct Planned {
  trace::ChoiceScript script;
  std::string origin;                    // coverage: where the schedule came from
  std::size_t deviations = 0;            // bounded: its non-default choices
  std::vector<std::string> description;  // filled in after the run, from what it was offered
};

class Session {
 public:
  // repro(n): the command that runs the search again up to its n-th schedule.
  Session(RunConfig c, std::string path, std::string dir, std::string trace_dir, bool quiet, bool compare,
          ExploreReport& reports, std::function<std::string(std::size_t)> repro)
      : c_(std::move(c)),
        path_(std::move(path)),
        dir_(std::move(dir)),
        trace_dir_(std::move(trace_dir)),
        quiet_(quiet),
        compare_(compare),
        reports_(reports),
        repro_(std::move(repro)) {
    c_.options.run.guide_file = dir_ + "/script";
  }

  // Runs one schedule at p. Returns false when it fails (reported, trace kept): the session ends.
  bool run(int p, Planned& s, std::vector<trace::OfferedChoice>& offered) {
    s.script.save(c_.options.run.guide_file);
    RunConfig run = c_;
    run.options.run.guide_log = dir_ + "/log";  // the log makes the run an exploring one
    QuietRun q = run_quietly(run, path_, p, 1);
    offered = trace::read_choice_log(run.options.run.guide_log);
    if (s.description.empty()) s.description = trace::describe_deviations(offered, 12);
    // A killed run is neither passed nor failed, nor counted: the reports have no record of it,
    // and "interrupted after N schedules" says how many they have (it said one more).
    if (interrupted()) return true;
    ++runs_;
    std::string what = s.origin;
    if (what.empty()) what = std::to_string(s.deviations) + " non-default choice" + (s.deviations == 1 ? "" : "s");
    for (const std::string& line : s.description) what += "; " + line;
    if (!q.passed) {
      std::vector<Finding> failing;  // shown as run shows them: process, superstep, file:line
      for (const Finding& f : q.outcome.report.findings)
        if (checker::finding_fails(f, c_.options.run.werror)) failing.push_back(f);
      const std::string trace =
          report(p, s, run, q.failing_rules.empty() ? "" : " with " + q.failing_rules.front(), q.reason, failing);
      reports_.add(p, runs_, what, q.outcome, false, {},
                   trace.empty() ? repro_(runs_) : replay_line(c_.options, trace));
      return false;
    }
    if (compare_)
      if (const auto differs = compare_outputs(outputs_, q.outcome)) {
        Finding where;  // the superstep and each schedule's last call before the line, as run's has
        std::optional<ExpectedLine> watched;  // the replay reports the divergence where it prints it
        const std::string line = first_difference(p, s, differs->first, where, watched);
        Finding f = checker::default_schedule_divergence_finding(differs->first, line, where.superstep);
        f.locations = where.locations;
        if (f.locations.empty())
          f.message +=
              " (no line: run once more with each line's superstep and call, the two schedules did not print "
              "differently again)";
        // The recording carries the reference output's digests (as run's does), so that its
        // replay reports the divergence again instead of passing.
        if (const std::vector<std::uint64_t>* reference = outputs_.reference(p))
          run.options.run.expected_output = *reference;
        if (watched) run.options.run.expected_line = *watched;
        const std::string trace = report(p, s, run, " with " + f.rule, "", {f});
        reports_.add(p, runs_, what, q.outcome, false, {f},
                     trace.empty() ? repro_(runs_) : replay_line(c_.options, trace));
        return false;
      }
    reports_.add(p, runs_, what, q.outcome, true, {}, repro_(runs_));
    return true;
  }

  std::size_t runs() const { return runs_; }
  void progress(const std::string& what) const {
    if (!quiet_ && runs_ % 20 == 0)
      std::fprintf(stderr, "\r\033[Kbsp-check: explore: %zu schedules run%s...", runs_, what.c_str());
  }
  void clear_progress() const {
    if (!quiet_) std::fputs("\r\033[K", stderr);
  }

 private:
  // The first line where process pid's output under s differs from the default schedule's: both
  // are run again with per-process prefixes (runs are deterministic), then once more with each
  // line's superstep and last call, which locate the difference in `where` (as run's are).
  std::string first_difference(int p, Planned& s, int pid, Finding& where, std::optional<ExpectedLine>& watched) {
    RunConfig again = c_;
    again.options.run.guide_log = dir_ + "/log.again";
    std::string line;
    for (const bool locating : {false, true}) {
      again.prefix = locating ? kContextPrefix : "[%p] ";
      trace::ChoiceScript{}.save(again.options.run.guide_file);  // the default schedule
      const RunOutcome a = run_quietly(again, path_, p, 1).outcome;
      s.script.save(again.options.run.guide_file);
      const RunOutcome b = run_quietly(again, path_, p, 1).outcome;
      if (locating) locate_difference(a, b, pid, where);
      else {
        line = first_output_difference(a, b, pid, "the default schedule", "this one");
        watched = first_differing_line(a, b, pid);
      }
    }
    return line;
  }

  // Prints the failing schedule and keeps its trace; returns the trace's path ("" when none was kept).
  std::string report(int p, const Planned& s, const RunConfig& run, const std::string& with, const std::string& reason,
                     const std::vector<Finding>& findings) {
    clear_progress();
    RunConfig record = run;
    const std::string base = std::filesystem::path(c_.program).filename().string();
    record.options.run.trace_file =
        (std::filesystem::path(trace_dir_) / (base + "-p" + std::to_string(p) + "-explore.trace")).string();
    s.script.save(record.options.run.guide_file);
    const QuietRun recorded = run_quietly(record, path_, p, 1);
    std::printf("bsp-check: explore: schedule %zu fails (p = %d", runs_, p);
    if (!s.origin.empty()) std::printf(", %s", s.origin.c_str());
    else std::printf(", %zu non-default choice%s", s.deviations, s.deviations == 1 ? "" : "s");
    std::printf(")%s\n", with.c_str());
    if (!reason.empty()) std::printf("  %s\n", reason.c_str());
    for (const std::string& line : s.description) std::printf("  %s\n", line.c_str());
    for (const Finding& f : findings) std::fputs(checker::render_finding(f, "").c_str(), stdout);
    if (std::filesystem::exists(record.options.run.trace_file) && (!recorded.passed || !with.empty())) {
      std::printf("  trace: %s\n  replay: %s\n", record.options.run.trace_file.c_str(),
                  replay_line(c_.options, record.options.run.trace_file).c_str());
      return record.options.run.trace_file;
    }
    return "";
  }

  RunConfig c_;
  std::string path_, dir_, trace_dir_;
  bool quiet_, compare_;
  ExploreReport& reports_;
  std::function<std::string(std::size_t)> repro_;
  std::size_t runs_ = 0;
  checker::OutputComparison outputs_;  // per p, the default schedule's output is the reference
};

// How a search at one p ended.
struct SearchEnd {
  bool failed = false;     // at a failing schedule: the session ends
  bool exhausted = false;  // every schedule of the bounded search's space was run
  std::size_t tuples = 0;  // coverage: the tuples the search reached
};

// Every schedule within --bound non-default choices (replay/bounded_search.hpp), in turn, until
// one fails, --max-runs or a signal.
SearchEnd search_bounded(Session& session, const ExploreReport& reports, const ExploreFlags& f, int p,
                         std::size_t first_of_p) {
  SearchEnd end{false, true, 0};
  std::vector<trace::OfferedChoice> offered;
  trace::BoundedSearch search(f.bound);
  while (const auto s = search.next()) {
    if (session.runs() >= f.max_runs || interrupted()) {
      end.exhausted = false;
      break;
    }
    Planned plan{trace::BoundedSearch::script(*s), "", s->deviations, {}};
    const std::size_t before = reports.coverage().size();
    if (!session.run(p, plan, offered)) return SearchEnd{true, false, 0};
    search.ran(*s, offered);
    if (const std::size_t added = reports.coverage().size() - before; f.verbose && added) {
      session.clear_progress();
      std::printf(
          "bsp-check: explore: p = %d, schedule %zu (%zu non-default choice%s): +%zu coverage tuple%s, %zu in "
          "all\n",
          p, session.runs() - first_of_p, s->deviations, s->deviations == 1 ? "" : "s", added, added == 1 ? "" : "s",
          reports.coverage().size());
    }
    session.progress(", " + std::to_string(reports.coverage().size()) + " coverage tuples");
  }
  if (!search.exhaustive()) end.exhausted = false;
  return end;
}

// Coverage-guided random schedules (replay/coverage_search.hpp): each p gets an equal share of
// --max-runs.
SearchEnd search_coverage(Session& session, const ExploreFlags& f, std::size_t procs, int p) {
  trace::CoverageSearch search(f.seed ^ static_cast<std::uint64_t>(p));
  const std::size_t share = f.max_runs / procs + 1;
  std::vector<trace::OfferedChoice> offered;
  while (search.runs() < share && session.runs() < f.max_runs && !interrupted()) {
    const trace::CoverageSearch::Schedule s = search.next();
    Planned plan{trace::CoverageSearch::script(s), s.origin, 0, {}};
    if (!session.run(p, plan, offered)) return SearchEnd{true, false, 0};
    if (const std::size_t added = search.ran(s, offered); f.verbose && added) {
      session.clear_progress();
      std::printf("bsp-check: explore: p = %d, schedule %zu (%s): +%zu coverage tuple%s, %zu in all, corpus %zu\n", p,
                  search.runs(), s.origin.c_str(), added, added == 1 ? "" : "s", search.tuples(), search.corpus_size());
    }
    session.progress(", " + std::to_string(search.tuples()) + " coverage tuples, corpus " +
                     std::to_string(search.corpus_size()));
  }
  return SearchEnd{false, false, search.tuples()};
}

// --from TRACE: an MPI job's records. Its run's schedule is the default one of both searches
// (docs/mpi.md: each queue and the colliding writes in source-rank order, the processes' calls in
// pid order, unbuffered operations at the sync), so a search from there is a search around the
// run that happened: its p and arguments become the search's. Checks that the program given
// follows the record (one replay) before the search starts. c.procs: -p as given, if it was.
// False: said why in one line.
bool search_from_record(ExploreFlags& f, bool procs_given, RunConfig& c) {
  if (!merge_rank_records(f.from, true)) return false;
  const std::optional<trace::Header> h = trace_to_run_again(f.from);
  if (!h) return false;
  const std::string p = std::to_string(h->procs);
  if (h->strategy != trace::kMpiStrategy) {
    std::cerr << "bsp-check: error: --from " << f.from
              << ": not an MPI job's record; the searches start from their default schedule, which is an MPI "
                 "run's, while an engine trace's schedule is its seed's (bsp-check replay or shrink it)\n";
    return false;
  }
  if (procs_given && c.procs != std::vector<int>{static_cast<int>(h->procs)}) {  // -p 3 and -p 3-3 alike
    std::cerr << "bsp-check: error: --from " << f.from << " recorded a run of " << p << " processes, not -p " << f.procs
              << "\n";
    return false;
  }
  f.procs = p;
  c.procs = {static_cast<int>(h->procs)};
  if (c.args.empty()) c.args = h->args;
  // The program given must make the recorded calls: replayed once, quietly.
  RunConfig replay = c;
  replay.options.run.replay_file = f.from;
  replay.options.run.grant_fewer = false;                                     // the record says how many were granted
  rt::set_program_option(replay.options, "strategy", std::string("random"));  // the record answers
  const std::optional<std::string> path = program_path(c.program);
  if (!path) return false;
  const QuietRun r = run_quietly(replay, *path, static_cast<int>(h->procs), h->seed);
  for (const Finding& finding : r.outcome.report.findings)
    if (finding.rule == rule_id(Rule::replay_divergence)) {
      std::cerr << "bsp-check: error: --from " << f.from << ": " << c.program << " does not make the recorded calls ("
                << finding.message << ")\n";
      return false;
    }
  std::cerr << "bsp-check: note: the MPI run recorded in " << f.from << " (p = " << p
            << ") is the search's default schedule; each schedule is counted in choices away from it\n";
  return true;
}

// explore's command line into f and c; an exit status when it is not one to run.
std::optional<int> parse_explore(const std::vector<std::string>& args, const char* version, ExploreFlags& f,
                                 RunConfig& c) {
  CLI::App app{
      "bsp-check explore: run PROGRAM under many schedules, counting only choices that can change what\n"
      "the program sees: the order of messages that differ, the order of overlapping writes of\n"
      "different data, and when unbuffered operations take effect. Each schedule's output is compared\n"
      "with the default schedule's. Stops at the first failing schedule and keeps its trace.\n"
      "  --strategy bounded (default): every schedule within K non-default choices (--bound).\n"
      "  --strategy coverage: coverage-guided random (docs/exploration.md), --max-runs schedules.\n"
      "\nUsage: bsp-check explore [options] [--] PROGRAM [ARGS...]",
      "bsp-check explore"};
  app.add_option("--strategy", f.strategy, "bounded (default) or coverage")
      ->check(CLI::IsMember({"bounded", "coverage"}));
  app.add_option("--bound", f.bound, "bounded: at most this many non-default choices per schedule (default 2)")
      ->check(whole_number(0, 1000));
  app.add_option("--seed", f.seed, "coverage: the search's seed (default 1)")->check(whole_number(0, kMaxSeed));
  app.add_option("-p,--procs", f.procs, "processors available: a number, range or list; each is explored (default 4)");
  app.add_option("--max-runs", f.max_runs, "stop after this many schedules (default 2000)")
      ->check(whole_number(1, 100000000));
  app.add_option("--timeout", f.timeout, "seconds each schedule's run may take: " + option_help("timeout"))
      ->check(option_value("timeout"));
  app.add_option("--trace-dir", f.trace_dir, "where the failing schedule's trace is kept (default: .)");
  app.add_flag("--schedule-dependent-output", f.schedule_dependent_output,
               "do not compare each schedule's output with the default schedule's");
  app.add_flag("--grant-fewer", f.grant_fewer,
               "bsp_begin may grant fewer processes than asked: the number granted is one of the explored choices");
  app.add_option("--json", f.json_file,
                 "write every schedule run to FILE as JSON (the format of run --json; \"seed\" is "
                 "the schedule's number)")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--sarif", f.sarif_file, "write the distinct findings to FILE as SARIF 2.1.0")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--junit", f.junit_file, "write FILE as JUnit XML, one test case per schedule run")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--source-root", f.source_root,
                 "SARIF file names are relative to DIR (default: the working directory)")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  app.add_option("--from", f.from,
                 "start from an MPI job's run: its records (PATH or PATH.rank<K> from trace=PATH, merged into "
                 "PATH first) or their merged trace; PROGRAM is the same program built for the engine, -p and its "
                 "arguments default to the run's")
      ->type_name("TRACE");
  app.add_flag("-q,--quiet", f.quiet, "no progress lines");
  app.add_flag("-v,--verbose", f.verbose, "a line for every schedule that reaches new coverage tuples");
  app.prefix_command();
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  f.quiet = f.quiet || !isatty(STDERR_FILENO);  // progress lines only on a terminal
  std::vector<std::string> program = app.remaining();
  if (auto status = program_and_args(app, program)) return *status;
  c.program = program.front();
  c.args.assign(program.begin() + 1, program.end());
  c.version = version;
  c.keep_trace = false;
  c.schedule_dependent_output = f.schedule_dependent_output;
  c.options.run.grant_fewer = f.grant_fewer;
  c.options.timeout_seconds = f.timeout;
  try {
    c.procs = parse_proc_list(f.procs);
  } catch (const std::invalid_argument& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return 2;
  }
  if (!f.from.empty() && !search_from_record(f, app.count("--procs") > 0, c)) return 2;
  return std::nullopt;
}

// The search's options, as its reports name them.
nlohmann::json explore_options(const ExploreFlags& f) {
  nlohmann::json options = {{"werror", false},
                            {"disable", nlohmann::json::array()},
                            {"suppressions", ""},
                            {"check", true},
                            {"strategy", f.strategy},
                            {"grant_fewer", f.grant_fewer},
                            {"schedule_dependent_output", f.schedule_dependent_output}};
  if (f.strategy == "bounded") options["bound"] = f.bound;
  else options["seed"] = f.seed;
  return options;
}

}  // namespace

std::string explore_reproduce(const ExploreFlags& f, const RunConfig& c, int p, std::size_t n) {
  std::string cmd = "bsp-check explore --strategy " + f.strategy;
  cmd += f.strategy == "bounded" ? " --bound " + std::to_string(f.bound) : " --seed " + std::to_string(f.seed);
  cmd += " -p " + std::to_string(p) + " --max-runs " + std::to_string(n);
  if (f.grant_fewer) cmd += " --grant-fewer";
  cmd += timeout_flag(c.options);
  if (f.schedule_dependent_output) cmd += " --schedule-dependent-output";
  cmd += " " + shell_quote(c.program);
  for (const std::string& a : c.args) cmd += " " + shell_quote(a);
  return cmd;
}

std::string explore_verdict(const ExploreFlags& f, std::size_t runs, std::size_t tuples, bool exhausted) {
  if (f.strategy == "coverage")
    return "bsp-check: explore: " + std::to_string(runs) + " coverage-guided schedules, none fails (p = " + f.procs +
           ", seed " + std::to_string(f.seed) + "); " + std::to_string(tuples) +
           " distinct (superstep, choice, outcome) tuples reached\n";
  const char* space =
      exhausted ? "was exhausted: every schedule that can differ was run"
                : (runs >= f.max_runs ? "was not exhausted (stopped at --max-runs)"
                                      : "was not exhausted: schedules with more deviations exist (raise --bound)");
  return "bsp-check: explore: " + std::to_string(runs) + " distinct schedules, none fails (p = " + f.procs +
         ", bound " + std::to_string(f.bound) + "); " + std::to_string(tuples) +
         " distinct (superstep, choice, outcome) tuples reached; the space " + space + "\n";
}

int explore_command(const std::vector<std::string>& args, const char* version) {
  ExploreFlags f;
  RunConfig c;
  if (auto status = parse_explore(args, version, f, c)) return *status;
  const std::optional<std::string> path = program_path(c.program);
  if (!path) return 2;
  // As run checks its --trace-dir: the failing schedule's trace must have a place to go.
  if (const std::string why = why_not_trace_dir(f.trace_dir, true); !why.empty()) {
    std::cerr << "bsp-check: error: " << why << "\n";
    return 2;
  }
  ExploreReport reports;  // --json, --sarif, --junit (tools/reports/explore_report.hpp)
  if (!reports.open(f.json_file, f.sarif_file, f.junit_file)) return 2;
  const auto started = std::chrono::steady_clock::now();
  start_temp_janitor();  // before any thread: the session's folder goes if the driver is killed
  const std::string dir = temp_folder("explore");
  if (dir.empty()) {
    std::perror("bsp-check: mkdtemp");
    return 2;
  }
  install_interrupt_handlers();
  int current_p = 0;
  std::size_t first_of_p = 0;  // the session's runs before the current p's
  Session session(c, *path, dir, f.trace_dir, f.quiet, compare_outputs_wanted(c), reports,
                  [&](std::size_t n) { return explore_reproduce(f, c, current_p, n - first_of_p); });
  // The reports and, after a signal, how far the search got; the exit status.
  auto finish = [&](int status) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    SessionInfo info;
    info.program = c.program;
    info.args = c.args;
    info.command_line = "bsp-check";
    for (const std::string& a : args) info.command_line += " " + shell_quote(a);
    info.version = version;
    info.source_root = f.source_root;
    info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (interrupted()) info.interrupted_by = interrupt_signal_name();  // SIGINT, SIGTERM or SIGHUP
    if (!reports.write(info, explore_options(f))) return 2;
    if (interrupted()) {
      session.clear_progress();
      std::fprintf(stderr, "bsp-check: explore: interrupted after %zu schedules; none failed\n", session.runs());
      return 128 + interrupt_signal();
    }
    return status;
  };

  bool exhausted = true;
  std::size_t tuples = 0;  // coverage: the tuples each p's search reached
  for (int p : c.procs) {
    current_p = p;
    first_of_p = session.runs();
    const SearchEnd end = f.strategy == "bounded" ? search_bounded(session, reports, f, p, first_of_p)
                                                  : search_coverage(session, f, c.procs.size(), p);
    if (end.failed) return finish(1);
    exhausted = exhausted && end.exhausted;
    tuples += end.tuples;
    if (session.runs() >= f.max_runs || interrupted()) break;
  }
  session.clear_progress();
  if (interrupted()) return finish(0);
  const std::size_t reached = f.strategy == "coverage" ? tuples : reports.coverage().size();
  std::fputs(explore_verdict(f, session.runs(), reached, exhausted).c_str(), stdout);
  return finish(0);
}

}  // namespace bspcheck::cli
