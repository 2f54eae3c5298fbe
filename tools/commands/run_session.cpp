// run_session.cpp: one `bsp-check run` session, as an object whose steps are named: plan (what
// the session runs and how: fork servers, workers ahead, the determinism check), run_at (one
// run: its outcome, then check, account and print), and at the end write_reports and finish (the
// closing lines, the trace kept of the first failure). The runs come from
// tools/launch/run_servers.hpp, are compared across seeds by tools/across_runs/ (output_divergence,
// file_divergence, determinism_check), summed up by tools/across_runs/run_summary.hpp and written
// by tools/reports/reports.hpp; what the session says from its counts is
// tools/commands/run_session_lines.hpp.
#include "tools/commands/run_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "bspcheck/rules.hpp"
#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "replay/trace_format.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "tools/cli/reproduce_command.hpp"
#include "tools/reports/atomic_file.hpp"
#include "tools/across_runs/check_run_beside.hpp"
#include "tools/across_runs/determinism_check.hpp"
#include "tools/across_runs/file_divergence.hpp"
#include "tools/across_runs/hp_race_probe.hpp"
#include "tools/commands/run_session_lines.hpp"
#include "tools/commands/session_files.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/launch/program_check.hpp"
#include "tools/reports/reports.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/run_servers.hpp"
#include "tools/reports/run_report_file.hpp"
#include "tools/across_runs/run_summary.hpp"
#include "tools/launch/shard.hpp"
#include "tools/launch/stdin_feed.hpp"
#include "tools/launch/temp_files.hpp"

namespace bspcheck::cli {

namespace {

// A kept trace is named only when it is one: a run that ended before it recorded anything (the
// program refused its p, died before bsp_begin) leaves an empty file, which is removed.
bool kept_trace_valid(const std::string& path) {
  try {
    if (std::filesystem::exists(path)) {
      trace::EventStream::open(path);
      return true;
    }
  } catch (const std::exception&) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  return false;
}

// Output kept for the JUnit file: bounded, a failing run's end is what matters.
std::string tail_of(const std::string& s, std::size_t limit = 64 * 1024) {
  if (s.size() <= limit) return s;
  return "[... " + std::to_string(s.size() - limit) + " bytes not kept ...]\n" + s.substr(s.size() - limit);
}

// After reproduce lines: a reproduction needs the input the runs were given.
void print_input_reminder(const StdinFeed& in) {
  if (in.gave_input())
    std::fputs("  (the runs were given bsp-check's standard input: give a reproduction the same input, e.g. < FILE)\n",
               stderr);
}

// The temporary trace of a single, checked run goes whichever way the session ends.
struct RemovedAtEnd {
  std::string path;
  ~RemovedAtEnd() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

class RunSession {
 public:
  RunSession(const RunConfig& c, std::string* kept_trace, bool files_temporary)
      : c_(c), kept_trace_(kept_trace), files_temporary_(files_temporary) {}

  // The whole session; returns run_command's exit status.
  int run() {
    if (const std::optional<int> status = plan()) return *status;
    start_ = std::chrono::steady_clock::now();
    std::uint64_t run_number = 0;  // in the whole session's order, shards or not
    for (int p : c_.procs) {
      for (std::uint64_t i = 0; i < c_.seeds && !interrupted(); ++i) {
        const std::uint64_t seed = c_.seed + i;
        if (!shard_.contains(run_number++)) {
          reference_run(p, seed);
          continue;
        }
        if (!run_at(p, seed)) break;
      }
      if ((failed_ && !c_.keep_going) || interrupted()) break;
    }
    servers_->stop();  // the fork servers and their folders are gone before the reports are written
    if (progress_) std::fputs("\r\033[K", stderr);
    return finish();
  }

 private:
  // What the session runs and how. Returns an exit status when it cannot start.
  std::optional<int> plan();
  // Another shard's run. Until this p has a reference output, run it anyway (not counted): every
  // shard then compares with the same reference as the whole session would, its output and its
  // files, so the shards' union is the unsharded session, schedule-divergence included.
  void reference_run(int p, std::uint64_t seed) {
    if (comparing_ && !stream_ && !outputs_.has_reference(p)) {
      const RunOutcome ref = servers_->run(p, seed);
      if (!ref.passed) return;
      compare_outputs(outputs_, ref);
      if (!c_.options.keep_files.empty()) file_reference_.emplace(p, seed);  // its kept files, the reference
    }
  }
  // One of this shard's runs; false when the session stops (a failure without --keep-going, a signal).
  bool run_at(int p, std::uint64_t seed);
  void print_progress(int p, std::uint64_t seed) const;
  RunOutcome outcome_at(int p, std::uint64_t seed);
  // The driver's own checks of a run (outputs and files across seeds, determinism); returns the
  // reproduce line of a divergence ("" otherwise). `recorded`: the session's recorded first run,
  // whose trace its determinism check compares with its twin's.
  std::string check(RunOutcome& r, int p, std::uint64_t seed, bool recorded, bool trace_written);
  void add_finding(RunOutcome& r, Finding f) const;
  // An ASan build's run whose hpput found its target already running: looked at again with the
  // destination poisoned from the superstep's start (tools/across_runs/hp_race_probe.hpp).
  void look_again_at_hp_races(RunOutcome& r, int p, std::uint64_t seed);
  // What a run adds to the session: coverage, unchecked checks, its record, its counts.
  struct Accounted {
    std::size_t fresh_tuples = 0;       // coverage tuples no earlier run reached
    std::vector<const Finding*> fresh;  // findings no earlier run had
    RunRecord record;
  };
  Accounted account(const RunOutcome& r, int p, std::uint64_t seed, std::string& repro);
  void print(const RunOutcome& r, int p, std::uint64_t seed, const Accounted& a, const std::string& repro);
  // A failed run: counted, the first one remembered; false when the session stops at it.
  bool on_failure(const RunOutcome& r, int p, std::uint64_t seed);
  // After the runs: the reports, the summary table, the closing lines; the exit status.
  int finish();
  SessionInfo session_info(double seconds, int stop_signal) const;
  bool write_reports(const SessionInfo& session, int stop_signal);
  // The first failing run's trace: recorded again (or the session's recorded first run's kept).
  int keep_first_failure_trace();
  void name_kept_trace(const std::string& trace) const;

  const RunConfig& c_;
  std::string* kept_trace_;
  const bool files_temporary_;
  std::string program_;
  ReportFiles reports_;
  std::optional<StdinFeed> stdin_feed_;  // nothing is read before the first run wants it
  Shard shard_;
  std::uint64_t total_ = 0;  // the runs of this shard
  bool stream_ = false;      // a single run shows its output live
  bool progress_ = false;
  bool use_servers_ = false;
  bool wants_determinism_check_ = false;
  // The session's first run is recorded (a single run's into --trace FILE, or a temporary
  // trace), so that checking its determinism takes one more run, not two; that run goes
  // beside it where it can (tools/across_runs/check_run_beside.hpp).
  bool record_first_ = false;
  std::string first_trace_;
  // A temporary trace is only compared, unless the run fails: both runs write just its digest
  // (trace::Digest; writing and removing the two traces took a one-run session about 10 ms of
  // its 0.15-0.2 s on two cores), and a failing run is recorded again for the trace it keeps.
  bool first_trace_digest_ = false;
  std::unique_ptr<CheckRunBeside> check_beside_;  // its determinism check's run, beside it
  RemovedAtEnd temporary_trace_;
  unsigned jobs_ = 1;
  std::chrono::steady_clock::time_point start_;

  nlohmann::json runs_ = nlohmann::json::array();
  std::vector<RunRecord> records_;
  std::uint64_t done_ = 0, failed_ = 0, with_findings_ = 0, with_warnings_ = 0;
  bool trace_unwritten_ = false;  // a run's recording could not be written (a full disk)
  FindingSummary summary_;
  std::set<std::string> unchecked_;       // checks some run could not make (RunReport::unchecked)
  std::vector<std::string> repro_lines_;  // failing runs shown in full
  std::uint64_t repro_more_ = 0;
  std::optional<std::pair<int, std::uint64_t>> first_failure_;
  bool first_failure_diverged_ = false;                               // it failed only by comparison with another seed
  bool first_failure_found_by_driver_ = false;                        // the run passed; the driver's findings failed it
  bool first_failure_killed_ = false;                                 // by a signal from outside (not its own doing)
  std::optional<ExpectedLine> divergence_line_, first_failure_line_;  // its first line that differs
  ExpectedFileByte file_divergence_byte_, first_failure_byte_;        // or its file's first byte
  checker::OutputComparison outputs_;  // schedule-divergence: each process's output must not depend on the schedule
  rt::CoverageMap coverage_;           // the (superstep, choice kind, outcome) tuples the session's runs reached
  bool comparing_ = false;  // off when a seed turns out not to print the same twice (uncontrolled-nondeterminism)
  // The seed of each p's first clean run, whose files the others' must be.
  std::map<int, std::uint64_t> file_reference_;
  std::set<std::string> probed_;                   // hp race probes already looked at (new_probes)
  std::vector<HpRaceProbe> run_probes_;            // those that made the current run fail
  std::vector<HpRaceProbe> first_failure_probes_;  // and the first failing run's, for its trace
  std::optional<RunServers> servers_;              // last: its runs use the members above
};

std::optional<int> RunSession::plan() {
  const std::optional<std::string> program = program_path(c_.program);
  if (!program) return 2;
  program_ = *program;
  // Output files are opened before the first run: a typo should not cost a long session. They
  // are written whole at the end, and renamed into place (tools/reports/atomic_file.hpp).
  if (!reports_.open(c_.json_file, c_.sarif_file, c_.junit_file)) return 2;
  install_interrupt_handlers();

  shard_ = Shard{c_.shard_index, c_.shard_count};
  total_ = shard_.size(c_.procs.size() * c_.seeds);
  // A single run shows its output live; not a shard's one run, which is compared with the
  // session's reference run (reference_run) as any shard's runs are.
  stream_ = total_ == 1 && shard_.count == 1;
  progress_ = !c_.quiet && !stream_ && isatty(STDERR_FILENO);
  stdin_feed_.emplace();
  // A streamed stdin (a pipe) is a pipe of each run's own: runs are started anew then.
  const bool servers_but_for_input = c_.fork_server && !stream_ && c_.options.run.trace_file.empty() &&
                                     c_.options.run.replay_file.empty() && c_.options.run.guide_file.empty();
  use_servers_ = servers_but_for_input && stdin_feed_->shareable();
  // Said once, where the input alone keeps the fork server away: the session runs about 30 times
  // slower than it would from a file (docs/cli.md).
  if (!c_.quiet && servers_but_for_input && !use_servers_ && total_ > 1)
    std::fputs(
        "bsp-check: note: standard input is a pipe its writer still holds open, so it is streamed and each run "
        "is started anew, one at a time (no fork server); give the session < FILE or < /dev/null where the input "
        "is known\n",
        stderr);
  comparing_ = compare_outputs_wanted(c_);
  // uncontrolled-nondeterminism: the session's first run (or every one) is run again and compared
  // (tools/across_runs/determinism_check.hpp); not for a replay or a guided run, whose choices are not the seed's.
  wants_determinism_check_ =
      c_.determinism_check > 0 && c_.options.run.replay_file.empty() && c_.options.run.guide_file.empty() &&
      std::find(c_.options.run.disabled_rules.begin(), c_.options.run.disabled_rules.end(),
                rule_id(Rule::uncontrolled_nondeterminism)) == c_.options.run.disabled_rules.end();
  // The first run is recorded, into --trace FILE (a single run's) or a temporary trace, and
  // checked with one more run. Not when it reads a terminal: an interactive program's input
  // cannot be given to it twice. A session of many runs with --trace records every run, and its
  // check runs the first one twice more, as it does for --check-determinism's later runs.
  record_first_ =
      wants_determinism_check_ && !stdin_feed_->terminal() && (stream_ || c_.options.run.trace_file.empty());
  first_trace_ = c_.options.run.trace_file;
  if (record_first_ && first_trace_.empty()) {
    first_trace_ = temp_file(stream_ ? "single" : "first");
  }
  if (record_first_ && c_.options.run.trace_file.empty()) temporary_trace_.path = first_trace_;
  first_trace_digest_ = !temporary_trace_.path.empty();
  jobs_ = session_jobs(c_, program_, total_);
  // Fork servers, one per p, for many runs of plain seeds (not for a single, streamed run); with
  // -j, worker threads run the next runs of this shard ahead, each on fork servers of its own,
  // and the session takes their outcomes in its order, all but a recorded first run.
  servers_.emplace(c_, program_, *stdin_feed_, use_servers_, stream_);
  servers_->start_workers(jobs_, total_, shard_, record_first_ ? 1 : 0);
  return std::nullopt;
}

bool RunSession::run_at(int p, std::uint64_t seed) {
  if (progress_) print_progress(p, seed);
  RunOutcome r = outcome_at(p, seed);
  if (interrupted()) return false;  // this run was killed half-way: it is not counted, passed or failed
  ++done_;
  run_probes_.clear();
  if (!r.report.hp_race_probes.empty()) look_again_at_hp_races(r, p, seed);
  if (interrupted()) return false;
  // A recording that could not be written (a full disk: the run said so, and removed it) is
  // no trace to keep, nor to check the run's determinism with.
  const bool recorded = record_first_ && done_ == 1;
  const bool trace_written = !recorded || std::filesystem::exists(trace_path(first_trace_, p, seed));
  if (!trace_written) trace_unwritten_ = true;
  std::string repro = check(r, p, seed, recorded, trace_written);  // a divergence's: the session that shows it
  check_beside_.reset();                                           // its files and trace go now
  // The first of many runs passed: its recording is no failure's to keep.
  if (recorded && !stream_ && r.passed && !temporary_trace_.path.empty()) {
    std::remove(temporary_trace_.path.c_str());
    temporary_trace_.path.clear();
  }
  Accounted a = account(r, p, seed, repro);
  if (!stream_) print(r, p, seed, a, repro);
  if (!r.passed && (!c_.junit_file.empty() || !c_.sarif_file.empty())) {
    a.record.out = tail_of(r.out);
    a.record.err = tail_of(r.err);
  }
  if (!c_.junit_file.empty() || !c_.sarif_file.empty()) records_.push_back(std::move(a.record));
  return r.passed || on_failure(r, p, seed);
}

// Failures, rate and time left: a long session says how it goes and when it ends.
void RunSession::print_progress(int p, std::uint64_t seed) const {
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = done_ > 0 && spent > 0 ? static_cast<double>(done_) / spent : 0;
  char eta[32] = "";
  if (rate > 0) std::snprintf(eta, sizeof eta, ", ETA %.0f s", static_cast<double>(total_ - done_) / rate);
  std::fprintf(
      stderr, "\r\033[Kbsp-check: run %llu/%llu, %llu failed, %zu coverage tuples, %.0f runs/s%s (p=%d seed=%llu)...",
      static_cast<unsigned long long>(done_ + 1), static_cast<unsigned long long>(total_),
      static_cast<unsigned long long>(failed_), coverage_.size(), rate, eta, p, static_cast<unsigned long long>(seed));
}

RunOutcome RunSession::outcome_at(int p, std::uint64_t seed) {
  if (record_first_ && done_ == 0) {
    // The first run is recorded, with its determinism check's run beside it (the workers that
    // run ahead start at the second).
    RunConfig recorded = c_;
    recorded.options.run.trace_file = first_trace_;
    recorded.options.run.trace_digest = first_trace_digest_;
    check_beside_ = CheckRunBeside::start(recorded, program_, p, seed, *stdin_feed_, trace_path(first_trace_, p, seed));
    return run_once(recorded, program_, p, seed, *stdin_feed_, stream_);
  }
  std::optional<RunOutcome> ahead = servers_->take_ahead(p, seed);
  if (ahead) return std::move(*ahead);
  return servers_->run(p, seed);
}

// A finding of the driver's own: shown with the run, like the runtime's own findings (a
// streamed run's were shown live: this one now).
void RunSession::add_finding(RunOutcome& r, Finding f) const {
  if (stream_) std::cerr << checker::render_finding(f, "") << std::flush;
  else r.err += checker::render_finding(f, "");
  if (checker::finding_fails(f, c_.options.run.werror)) r.passed = false;
  r.report.findings.push_back(std::move(f));
}

void RunSession::look_again_at_hp_races(RunOutcome& r, int p, std::uint64_t seed) {
  NewProbes fresh = new_probes(r.report.hp_race_probes, probed_);
  if (fresh.probes.empty()) return;
  ProbeResult found = probe_hp_races(c_, program_, p, seed, *stdin_feed_, fresh.probes);
  if (found.findings.empty() && !interrupted()) probed_.insert(fresh.keys.begin(), fresh.keys.end());
  // The race is the cause of whatever else the run shows: its findings come first.
  for (Finding& f : found.findings) add_finding(r, std::move(f));
  run_probes_ = std::move(found.probes);
}

std::string RunSession::check(RunOutcome& r, int p, std::uint64_t seed, bool recorded, bool trace_written) {
  std::string repro;
  if (r.passed && !stream_ && comparing_)
    if (const auto differs = compare_outputs(outputs_, r)) {
      repro = divergence_reproduce(c_, p, differs->second, seed);
      Finding f = divergence_finding(c_, program_, p, differs->second, seed, differs->first, *stdin_feed_,
                                     *outputs_.reference(p), r.report.output_hash, &divergence_line_);
      // A seed that does not print the same twice: no comparison across seeds means anything.
      if (f.rule == rule_id(Rule::uncontrolled_nondeterminism)) comparing_ = false;
      add_finding(r, std::move(f));
    }
  if (r.passed && !stream_ && comparing_ && !c_.options.keep_files.empty())
    if (std::optional<Finding> f = compare_files(c_, program_, p, seed, file_reference_, files_temporary_, *stdin_feed_,
                                                 &file_divergence_byte_))
      add_finding(r, *f);
  // Does the seed describe the whole run? (the first run, or every one with --check-determinism)
  if (wants_determinism_check_ && (c_.determinism_check == 2 || done_ == 1) && (!stream_ || record_first_) &&
      trace_written) {
    const std::optional<RecordedRun> own =
        recorded ? std::optional<RecordedRun>(RecordedRun{r, trace_path(first_trace_, p, seed), first_trace_digest_})
                 : std::nullopt;
    if (std::optional<DeterminismFinding> d =
            check_determinism(c_, program_, p, seed, *stdin_feed_, own, check_beside_.get())) {
      if (d->output_differs) comparing_ = false;
      add_finding(r, std::move(d->finding));
    }
  }
  return repro;
}

RunSession::Accounted RunSession::account(const RunOutcome& r, int p, std::uint64_t seed, std::string& repro) {
  Accounted a;
  for (const CoverageTuple& t : r.report.coverage) a.fresh_tuples += coverage_.add(t);
  unchecked_.insert(r.report.unchecked.begin(), r.report.unchecked.end());
  // The run's record and reproduce line (every option spelled out) only when a report keeps
  // it or the run failed: formatting them was a tenth of the driver's time per run.
  const bool keeps_records = reports_.json || !c_.junit_file.empty() || !c_.sarif_file.empty();
  if (repro.empty() && (keeps_records || !r.passed)) repro = repro_command(c_, p, seed);
  if (keeps_records) a.record = run_record(r, repro);
  if (reports_.json) runs_.push_back(run_record_to_json(a.record));
  const std::vector<Finding>& findings = r.report.findings;
  // Which of its findings were not seen in an earlier run?
  a.fresh = summary_.add_run(findings, p, seed, done_, c_.options.run.werror);
  bool warnings = false;
  for (const Finding& f : findings) warnings = warnings || f.severity == Severity::warning;
  if (!findings.empty()) ++with_findings_;
  if (warnings) ++with_warnings_;
  return a;
}

void RunSession::print(const RunOutcome& r, int p, std::uint64_t seed, const Accounted& a, const std::string& repro) {
  auto header = [&](const std::string& what) {
    if (progress_) std::fputs("\r\033[K", stderr);
    std::fprintf(stderr, "==== p=%d seed=%llu: %s ====\n", p, static_cast<unsigned long long>(seed), what.c_str());
    std::fflush(stderr);
  };
  switch (how_run_is_shown(c_.verbose, r.passed, !a.fresh.empty(), !r.report.findings.empty())) {
    case RunShown::in_full:
      header(r.passed ? "ok" : "FAILED");
      // With -v, how the coverage grows: a note under the header of each run that adds to it.
      if (c_.verbose && a.fresh_tuples)
        std::fprintf(stderr, "bsp-check: note: coverage +%zu tuple%s, %zu in all\n", a.fresh_tuples,
                     a.fresh_tuples == 1 ? "" : "s", coverage_.size());
      std::cout << r.out << std::flush;
      std::cerr << r.err << std::flush;
      if (!r.passed) {
        if (repro_lines_.size() < 10) repro_lines_.push_back(repro);
        else ++repro_more_;
      }
      break;
    case RunShown::counted:  // counted in the summary table, not repeated
      ++repro_more_;
      break;
    case RunShown::warnings:  // the warnings, not the program's output
      header("ok, with warnings");
      for (const Finding* f : a.fresh) std::cerr << checker::render_finding(*f, repro_command(c_, p, seed));
      std::cerr << std::flush;
      break;
    case RunShown::nothing:
      break;
  }
}

bool RunSession::on_failure(const RunOutcome& r, int p, std::uint64_t seed) {
  const std::vector<Finding>& findings = r.report.findings;
  ++failed_;
  if (!first_failure_) {
    first_failure_ = std::make_pair(p, seed);
    first_failure_probes_ = run_probes_;
    first_failure_diverged_ =
        r.exit_status == 0 && !findings.empty() && findings.back().rule == rule_id(Rule::schedule_divergence);
    if (first_failure_diverged_) first_failure_line_ = divergence_line_;
    if (first_failure_diverged_) first_failure_byte_ = file_divergence_byte_;
    first_failure_found_by_driver_ = r.exit_status == 0;
    // Died of a signal the runtime does not report (its own crashes are findings): run_launcher.cpp
    first_failure_killed_ = !r.timed_out && r.exit_status > 128 && r.exit_status < 128 + 65;
  }
  if (!r.reason.empty()) std::cerr << "bsp-check: error: p=" << p << " seed=" << seed << ": " << r.reason << "\n";
  return c_.keep_going;
}

SessionInfo RunSession::session_info(double seconds, int stop_signal) const {
  SessionInfo session;
  session.program = c_.program;
  session.args = c_.args;
  session.command_line = c_.command_line;
  session.version = c_.version;
  session.werror = c_.options.run.werror;
  session.source_root = c_.source_root;
  session.seconds = seconds;
  if (stop_signal) session.interrupted_by = interrupt_signal_name();
  session.unchecked.assign(unchecked_.begin(), unchecked_.end());
  return session;
}

bool RunSession::write_reports(const SessionInfo& session, int stop_signal) {
  const auto dump = [](const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (reports_.json) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", c_.program},
                        {"args", c_.args},
                        {"options",
                         {{"werror", c_.options.run.werror},
                          {"disable", c_.options.run.disabled_rules},
                          {"suppressions", c_.options.run.suppressions_file},
                          {"check", c_.options.run.checks},
                          {"strategy", rt::StrategyValue::format(c_.options.run.strategy)}}},
                        {"runs", runs_},
                        {"coverage", coverage_json(coverage_)},
                        {"total", done_},
                        {"failed", failed_},
                        {"planned", total_},
                        {"shard", shard_.text()},
                        {"directory", session_directory()},
                        {"interrupted", stop_signal != 0}};
    if (stop_signal) j["interrupted_by"] = session.interrupted_by;
    if (!session.unchecked.empty()) j["unchecked"] = session.unchecked;
    if (!ReportFiles::commit(reports_.json, dump(j) + "\n")) return false;
  }
  if (reports_.sarif && !ReportFiles::commit(reports_.sarif, dump(sarif_log(session, records_)) + "\n")) return false;
  if (reports_.junit && !ReportFiles::commit(reports_.junit, junit_xml(session, records_))) return false;
  return true;
}

int RunSession::finish() {
  const int stop_signal = interrupt_signal();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const SessionInfo session = session_info(secs, stop_signal);
  if (!write_reports(session, stop_signal)) return 2;

  // Identical findings of many runs: one table instead of a thousand repeats.
  if (!c_.quiet && done_ > 1 && !summary_.empty()) summary_.print_table(with_findings_, done_);
  // Even with -q: a clean session that could not make a check must not read as one that did.
  for (const std::string& line : session.unchecked)
    std::fprintf(stderr, "bsp-check: note: not checked: %s\n", line.c_str());

  const SessionCounts counts{done_, failed_, total_, with_warnings_, secs};
  if (stop_signal) {
    std::fputs(interrupted_line(counts, session.interrupted_by).c_str(), stderr);
    for (const std::string& line : repro_lines_) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
    if (!repro_lines_.empty()) print_input_reminder(*stdin_feed_);
    return 128 + stop_signal;  // as a shell reports a command ended by the signal
  }
  const std::string range = session_range(c_.procs_text, c_.seed, c_.seeds, shard_);
  if (trace_unwritten_ && !c_.options.run.trace_file.empty()) {
    std::fprintf(stderr, "bsp-check: error: --trace %s: the trace could not be written (the run said why)\n",
                 c_.options.run.trace_file.c_str());
    return 2;
  }
  if (failed_ == 0) {
    if (!c_.quiet) std::fputs(clean_line(counts, range, c_.verbose, jobs_, coverage_.size()).c_str(), stderr);
    return 0;
  }
  std::fputs(failed_line(counts, range, c_.keep_going).c_str(), stderr);
  for (const std::string& line : repro_lines_) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
  print_input_reminder(*stdin_feed_);
  if (repro_more_)
    std::fprintf(stderr, "  ... and %llu more failing run%s%s\n", static_cast<unsigned long long>(repro_more_),
                 repro_more_ == 1 ? "" : "s", c_.json_file.empty() ? " (--json FILE lists every run)" : "");
  if (first_failure_ && c_.keep_trace && c_.options.run.trace_file.empty() && c_.options.run.replay_file.empty() &&
      !interrupted())
    return keep_first_failure_trace();
  return 1;
}

void RunSession::name_kept_trace(const std::string& trace) const {
  std::fprintf(stderr, "  trace: %s\n  replay: %s\n", trace.c_str(), replay_line(c_.options, trace).c_str());
  if (kept_trace_) *kept_trace_ = trace;
}

// Runs are deterministic, so running the first failing seed again with recording on gives
// exactly the run that failed.
int RunSession::keep_first_failure_trace() {
  const auto [p, seed] = *first_failure_;
  // Killed from outside (a kill, the out-of-memory killer): run again, it would wait for the same
  // signal, or be killed again. Its trace is kept only where it was recorded whole (--trace).
  if (first_failure_killed_) {
    std::fputs("  trace: none kept (the run was killed from outside; --trace FILE records such a run)\n", stderr);
    return 1;
  }
  RunConfig again = c_;
  const std::string base = std::filesystem::path(c_.program).filename().string();
  again.options.run.trace_file =
      (std::filesystem::path(c_.trace_dir) / (base + "-p" + std::to_string(p) + "-s" + std::to_string(seed) + ".trace"))
          .string();
  // A divergence: the recording carries the reference run's output digests (in its header's
  // checker options), so that its replay reports the divergence and shrink keeps it.
  if (first_failure_diverged_)
    if (const std::vector<std::uint64_t>* reference = outputs_.reference(p))
      again.options.run.expected_output = *reference;
  if (first_failure_diverged_ && first_failure_line_) again.options.run.expected_line = *first_failure_line_;
  if (first_failure_diverged_) again.options.run.expected_file = first_failure_byte_;  // a file's divergence
  // A race seen only with its destination poisoned early: the trace keeps the probes (in its
  // header's checker options), so that its replay sees it too.
  again.options.run.hp_race_probes = first_failure_probes_;
  if (!stream_)
    again.options.keep_files = failing_files_dir(c_, base, files_temporary_);  // a single run's are copied back
  // The first run's own recording is never kept: a temporary one held only its digest
  // (first_trace_digest_), and a run recorded into --trace keeps that trace itself.
  RunOutcome r = run_once(again, program_, p, seed, *stdin_feed_, false);
  if (interrupted()) {  // the recording was cut short: its trace is not the failing run
    std::error_code ignored;
    std::filesystem::remove(again.options.run.trace_file, ignored);
    return 128 + interrupt_signal();
  }
  // A failure the driver found (a comparison with another run, the determinism check under
  // --werror) is not the run's own: recorded again, the run passes, and its trace is kept.
  const bool driver_found = first_failure_diverged_ || first_failure_found_by_driver_;
  if (r.passed && !driver_found) {
    std::fprintf(stderr, "bsp-check: note: the failing run passed when run again to record it; not deterministic?\n");
    // Concurrent runs of one program each see files of their own in the working directory and the
    // temporary directories, but share every other path, sockets and the like: a program that
    // meets its twin there may fail beside it and pass alone.
    if (servers_->ran_ahead())
      std::fprintf(stderr,
                   "  this session ran %u runs at once (-j %u), which share the files outside the working and "
                   "temporary directories, sockets and other outside state: if the program uses them, run again "
                   "with -j 1\n",
                   jobs_, jobs_);
  }
  if ((!r.passed || driver_found) && kept_trace_valid(again.options.run.trace_file))
    name_kept_trace(again.options.run.trace_file);
  if (!stream_) name_failing_files(c_, again.options.keep_files, p, seed, files_temporary_);
  return 1;
}

}  // namespace

int run_session(const RunConfig& c, std::string* kept_trace, bool files_temporary) {
  return RunSession(c, kept_trace, files_temporary).run();
}

}  // namespace bspcheck::cli
