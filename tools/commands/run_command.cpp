// run_command.cpp: `bsp-check run`: the program under many seeds and process counts, one run
// after another (tools/launch/run_launcher.hpp, or forked from a server: tools/launch/fork_server_client.hpp),
// with schedule-divergence across seeds (tools/across_runs/output_divergence.hpp), the findings shown once
// and summed up at the end (tools/across_runs/run_summary.hpp), and the reports (tools/reports/reports.hpp).
#include "tools/commands/run_command.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <mutex>

#include "bspcheck/rules.hpp"
#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "replay/trace_format.hpp"
#include "runtime/isolation/file_view.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "tools/reports/atomic_file.hpp"
#include "tools/across_runs/determinism_check.hpp"
#include "tools/across_runs/file_divergence.hpp"
#include "tools/commands/session_files.hpp"
#include "tools/launch/copy_back.hpp"
#include "tools/launch/file_view_probe.hpp"
#include "tools/launch/fork_server_client.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/launch/program_check.hpp"
#include "tools/reports/reports.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/run_prefetch.hpp"
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

}  // namespace

namespace {

// Output kept for the JUnit file: bounded, a failing run's end is what matters.
std::string tail_of(const std::string& s, std::size_t limit = 64 * 1024) {
  if (s.size() <= limit) return s;
  return "[... " + std::to_string(s.size() - limit) + " bytes not kept ...]\n" + s.substr(s.size() - limit);
}

}  // namespace

// After reproduce lines: a reproduction needs the input the runs were given.
static void print_input_reminder(const StdinFeed& in) {
  if (in.gave_input())
    std::fputs("  (the runs were given bsp-check's standard input: give a reproduction the same input, e.g. < FILE)\n",
               stderr);
}

// How many runs go side by side: -j's (default: one per core), or one at a time where the runs
// share the real directories. That is the fallback where the kernel refuses each run a view of
// its own files (runtime/isolation/file_view.hpp), forced (BSPCHECK_FILE_VIEW=refuse, the
// fallback's test) or found by asking the program's runtime once: side by side the runs would
// meet in the same files. Said once, at the start (with -q too: the runs' results depend on it).
static unsigned session_jobs(const RunConfig& c, const std::string& program, std::uint64_t total) {
  const unsigned asked = c.jobs ? c.jobs : std::max(1u, std::thread::hardware_concurrency());
  const char* file_view = std::getenv(rt::kFileViewEnvironment);
  if (file_view && std::strcmp(file_view, "refuse") == 0) return 1;
  if (asked == 1 || total < 2 || (file_view && std::strcmp(file_view, "private") != 0)) return asked;
  const std::string refusal = file_view_refusal_of(program);
  if (refusal.empty()) return asked;
  std::cerr << "bsp-check: note: runs go one at a time, not " << asked
            << " side by side: the kernel refused each run a view of its own files (" << refusal
            << "), so they share the working directory and the temporary directory\n";
  return 1;
}

static int run_session(const RunConfig& c, std::string* kept_trace, bool files_temporary) {
  const std::optional<std::string> program = program_path(c.program);
  if (!program) return 2;
  // Output files are opened before the first run: a typo should not cost a long session. They
  // are written whole at the end, and renamed into place (tools/reports/atomic_file.hpp).
  ReportFiles reports;
  if (!reports.open(c.json_file, c.sarif_file, c.junit_file)) return 2;
  install_interrupt_handlers();

  const Shard shard{c.shard_index, c.shard_count};
  const std::uint64_t total = shard.size(c.procs.size() * c.seeds);  // the runs of this shard
  const bool stream = total == 1;                                    // a single run shows its output live
  const bool progress = !c.quiet && !stream && isatty(STDERR_FILENO);
  StdinFeed stdin_feed;  // nothing is read before the first run wants it

  nlohmann::json runs = nlohmann::json::array();
  std::vector<RunRecord> records;
  std::uint64_t done = 0, failed = 0, with_findings = 0, with_warnings = 0;
  bool trace_unwritten = false;  // a run's recording could not be written (a full disk)
  FindingSummary summary;
  std::set<std::string> unchecked;       // checks some run could not make (RunReport::unchecked)
  std::vector<std::string> repro_lines;  // failing runs shown in full
  std::uint64_t repro_more = 0;
  std::optional<std::pair<int, std::uint64_t>> first_failure;
  // Fork servers, one per p, for many runs of plain seeds (not for a single, streamed run).
  // A streamed stdin (a pipe) is a pipe of each run's own: runs are started anew then.
  const bool use_servers = c.fork_server && !stream && c.options.run.trace_file.empty() &&
                           c.options.run.replay_file.empty() && c.options.run.guide_file.empty() &&
                           stdin_feed.shareable();
  std::map<int, std::unique_ptr<ForkServer>> servers;
  std::set<int> no_server;
  bool first_failure_diverged = false;                              // it failed only by comparison with another seed
  std::optional<ExpectedLine> divergence_line, first_failure_line;  // its first line that differs
  ExpectedFileByte file_divergence_byte, first_failure_byte;        // or its file's first byte
  checker::OutputComparison outputs;  // schedule-divergence: each process's output must not depend on the schedule
  rt::CoverageMap coverage;           // the (superstep, choice kind, outcome) tuples the session's runs reached
  // Off when a seed turns out not to print the same twice (uncontrolled-nondeterminism).
  bool comparing = compare_outputs_wanted(c);
  std::map<int, std::uint64_t> file_reference;  // the seed of each p's first clean run, whose files the others' must be
  // uncontrolled-nondeterminism: the session's first run (or every one) is run again and compared
  // (tools/across_runs/determinism_check.hpp); not for a replay or a guided run, whose choices are not the seed's.
  const bool wants_determinism_check =
      c.determinism_check > 0 && c.options.run.replay_file.empty() && c.options.run.guide_file.empty() &&
      std::find(c.options.run.disabled_rules.begin(), c.options.run.disabled_rules.end(),
                rule_id(Rule::uncontrolled_nondeterminism)) == c.options.run.disabled_rules.end();
  // A single run is checked too: it is recorded, into --trace FILE or this temporary trace. Not
  // when it reads a terminal: an interactive program's input cannot be given to it twice.
  const bool check_single = stream && wants_determinism_check && !stdin_feed.terminal();
  std::string single_trace = c.options.run.trace_file;
  if (check_single && single_trace.empty()) {
    single_trace = temp_template("single");
    const int fd = mkstemp(single_trace.data());
    if (fd >= 0) close(fd);
  }
  struct RemovedAtEnd {  // the temporary trace goes whichever way the session ends
    std::string path;
    ~RemovedAtEnd() {
      if (!path.empty()) std::remove(path.c_str());
    }
  } temporary_trace{check_single && c.options.run.trace_file.empty() ? single_trace : std::string()};
  // One run at (p, seed): forked from p's server when there is one, else started anew.
  auto run_one = [&](int p, std::uint64_t seed) {
    RunOutcome r;
    bool served = false;
    if (use_servers && !no_server.count(p)) {
      std::unique_ptr<ForkServer>& server = servers[p];
      if (!server) {
        server = std::make_unique<ForkServer>();
        if (!server->start(c, *program, p, stdin_feed)) server.reset();
      }
      if (server) served = server->run(c, p, seed, r);
      if (!served) {  // e.g. a program that never reaches bsp_begin: run it the usual way
        servers.erase(p);
        no_server.insert(p);
        r = RunOutcome{};
      }
    }
    if (!served && !interrupted()) r = run_once(c, *program, p, seed, stdin_feed, stream);
    return r;
  };
  // -j: worker threads run the next runs of this shard ahead, each on fork servers of its own;
  // the loop below takes their outcomes in its order (tools/launch/run_prefetch.hpp).
  const unsigned jobs = session_jobs(c, *program, total);
  std::vector<std::map<int, std::unique_ptr<ForkServer>>> worker_servers(jobs);
  std::mutex no_server_mutex;
  std::set<int> worker_no_server;
  std::optional<RunPrefetch> prefetch;
  if (use_servers && jobs > 1 && total > 1)
    prefetch.emplace(
        jobs, total,
        [&](std::uint64_t i) {
          const std::uint64_t k = shard.index + i * shard.count;  // the session's run number
          return std::make_pair(c.procs[static_cast<std::size_t>(k / c.seeds)], c.seed + k % c.seeds);
        },
        [&](std::size_t worker, int p, std::uint64_t seed) {
          RunOutcome r;
          std::unique_ptr<ForkServer>& server = worker_servers[worker][p];
          bool served = false;
          bool usable;
          {
            const std::lock_guard<std::mutex> lock(no_server_mutex);
            usable = !worker_no_server.count(p);
          }
          if (usable && !server) {
            server = std::make_unique<ForkServer>();
            if (!server->start(c, *program, p, stdin_feed)) server.reset();
          }
          if (server) served = server->run(c, p, seed, r);
          if (!served) {
            server.reset();
            {
              const std::lock_guard<std::mutex> lock(no_server_mutex);
              worker_no_server.insert(p);
            }
            r = RunOutcome{};
            if (!interrupted()) r = run_once(c, *program, p, seed, stdin_feed, false);
          }
          return r;
        },
        4 * static_cast<std::size_t>(jobs));
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t run_number = 0;  // in the whole session's order, shards or not
  for (int p : c.procs) {
    for (std::uint64_t i = 0; i < c.seeds && !interrupted(); ++i) {
      const std::uint64_t seed = c.seed + i;
      if (!shard.contains(run_number++)) {
        // Another shard's run. Until this p has a reference output, run it anyway (not counted):
        // every shard then compares with the same reference as the whole session would, so the
        // shards' union is the unsharded session, schedule-divergence included.
        if (comparing && !stream && !outputs.has_reference(p)) {
          const RunOutcome ref = run_one(p, seed);
          if (ref.passed) compare_outputs(outputs, ref);
        }
        continue;
      }
      if (progress) {
        // Failures, rate and time left: a long session says how it goes and when it ends.
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rate = done > 0 && spent > 0 ? static_cast<double>(done) / spent : 0;
        char eta[32] = "";
        if (rate > 0) std::snprintf(eta, sizeof eta, ", ETA %.0f s", static_cast<double>(total - done) / rate);
        std::fprintf(
            stderr,
            "\r\033[Kbsp-check: run %llu/%llu, %llu failed, %zu coverage tuples, %.0f runs/s%s (p=%d seed=%llu)...",
            static_cast<unsigned long long>(done + 1), static_cast<unsigned long long>(total),
            static_cast<unsigned long long>(failed), coverage.size(), rate, eta, p,
            static_cast<unsigned long long>(seed));
      }
      std::optional<RunOutcome> ahead = prefetch ? prefetch->take(p, seed) : std::nullopt;
      RunOutcome r;
      if (ahead) {
        r = std::move(*ahead);
      } else if (check_single) {
        // A single run is recorded (into --trace FILE, or a temporary trace), so that checking
        // its determinism takes one more run, not two.
        RunConfig recorded = c;
        recorded.options.run.trace_file = single_trace;
        r = run_once(recorded, *program, p, seed, stdin_feed, stream);
      } else {
        r = run_one(p, seed);
      }
      if (interrupted()) break;  // this run was killed half-way: it is not counted, passed or failed
      ++done;
      // A recording that could not be written (a full disk: the run said so, and removed it) is
      // no trace to keep, nor to check the run's determinism with.
      const bool trace_written = !check_single || std::filesystem::exists(trace_path(single_trace, p, seed));
      if (!trace_written) trace_unwritten = true;
      // A finding of the driver's own: shown with the run, like the runtime's own findings (a
      // streamed run's were shown live: this one now).
      const auto add_finding = [&](Finding f) {
        if (stream) std::cerr << checker::render_finding(f, "") << std::flush;
        else r.err += checker::render_finding(f, "");
        if (checker::finding_fails(f, c.options.run.werror)) r.passed = false;
        r.report.findings.push_back(std::move(f));
      };
      std::string repro;  // a divergence's: the session that shows it
      if (r.passed && !stream && comparing)
        if (const auto differs = compare_outputs(outputs, r)) {
          repro = divergence_reproduce(c, p, differs->second, seed);
          Finding f = divergence_finding(c, *program, p, differs->second, seed, differs->first, stdin_feed,
                                         *outputs.reference(p), r.report.output_hash, &divergence_line);
          // A seed that does not print the same twice: no comparison across seeds means anything.
          if (f.rule == rule_id(Rule::uncontrolled_nondeterminism)) comparing = false;
          add_finding(std::move(f));
        }
      if (r.passed && !stream && comparing && !c.options.keep_files.empty())
        if (std::optional<Finding> f =
                compare_files(c, *program, p, seed, file_reference, files_temporary, stdin_feed, &file_divergence_byte))
          add_finding(*f);
      // Does the seed describe the whole run? (the first run, or every one with --check-determinism)
      if (wants_determinism_check && (c.determinism_check == 2 || done == 1) && (!stream || check_single) &&
          trace_written) {
        const std::optional<RecordedRun> own =
            check_single ? std::optional<RecordedRun>(RecordedRun{r, trace_path(single_trace, p, seed)}) : std::nullopt;
        if (std::optional<DeterminismFinding> d = check_determinism(c, *program, p, seed, stdin_feed, own)) {
          if (d->output_differs) comparing = false;
          add_finding(std::move(d->finding));
        }
      }
      std::size_t fresh_tuples = 0;  // reached by no earlier run of the session
      for (const CoverageTuple& t : r.report.coverage) fresh_tuples += coverage.add(t);
      unchecked.insert(r.report.unchecked.begin(), r.report.unchecked.end());
      // The run's record and reproduce line (every option spelled out) only when a report keeps
      // it or the run failed: formatting them was a tenth of the driver's time per run.
      const bool keeps_records = reports.json || !c.junit_file.empty() || !c.sarif_file.empty();
      if (repro.empty() && (keeps_records || !r.passed)) repro = repro_command(c, p, seed);
      RunRecord rec = keeps_records ? run_record(r, repro) : RunRecord{};
      if (reports.json) runs.push_back(run_record_to_json(rec));
      const std::vector<Finding>& findings = r.report.findings;

      // Which of its findings were not seen in an earlier run?
      const std::vector<const Finding*> fresh = summary.add_run(findings, p, seed, done, c.options.run.werror);
      bool warnings = false;
      for (const Finding& f : findings) warnings = warnings || f.severity == Severity::warning;
      if (!findings.empty()) ++with_findings;
      if (warnings) ++with_warnings;

      if (!stream) {
        auto header = [&](const std::string& what) {
          if (progress) std::fputs("\r\033[K", stderr);
          std::fprintf(stderr, "==== p=%d seed=%llu: %s ====\n", p, static_cast<unsigned long long>(seed),
                       what.c_str());
          std::fflush(stderr);
        };
        if (c.verbose || (!r.passed && (!fresh.empty() || findings.empty()))) {
          // In full: every run with -v, a failing run with a new finding or without findings.
          header(r.passed ? "ok" : "FAILED");
          // With -v, how the coverage grows: a note under the header of each run that adds to it.
          if (c.verbose && fresh_tuples)
            std::fprintf(stderr, "bsp-check: note: coverage +%zu tuple%s, %zu in all\n", fresh_tuples,
                         fresh_tuples == 1 ? "" : "s", coverage.size());
          std::cout << r.out << std::flush;
          std::cerr << r.err << std::flush;
          if (!r.passed) {
            if (repro_lines.size() < 10) repro_lines.push_back(repro);
            else ++repro_more;
          }
        } else if (!r.passed) {
          // Only findings already shown in full: counted in the summary table, not repeated.
          ++repro_more;
        } else if (!fresh.empty()) {
          // A passing run with new warnings: the warnings, not the program's output.
          header("ok, with warnings");
          for (const Finding* f : fresh) std::cerr << checker::render_finding(*f, repro_command(c, p, seed));
          std::cerr << std::flush;
        }
      }
      if (!r.passed && (!c.junit_file.empty() || !c.sarif_file.empty())) {
        rec.out = tail_of(r.out);
        rec.err = tail_of(r.err);
      }
      if (!c.junit_file.empty() || !c.sarif_file.empty()) records.push_back(std::move(rec));
      if (!r.passed) {
        ++failed;
        if (!first_failure) {
          first_failure = std::make_pair(p, seed);
          first_failure_diverged =
              r.exit_status == 0 && !findings.empty() && findings.back().rule == rule_id(Rule::schedule_divergence);
          if (first_failure_diverged) first_failure_line = divergence_line;
          if (first_failure_diverged) first_failure_byte = file_divergence_byte;
        }
        if (!r.reason.empty()) std::cerr << "bsp-check: error: p=" << p << " seed=" << seed << ": " << r.reason << "\n";
        if (!c.keep_going) break;
      }
    }
    if ((failed && !c.keep_going) || interrupted()) break;
  }
  prefetch.reset();  // no more runs ahead; the ones under way end (an interrupt kills them)
  worker_servers.clear();
  servers.clear();  // the fork servers and their folders are gone before the reports are written
  if (progress) std::fputs("\r\033[K", stderr);
  const int stop_signal = interrupt_signal();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Two decimals below ten seconds: a session of a hundred small runs reads "0.04 s", not "0.0 s".
  const int secs_decimals = secs < 10 ? 2 : 1;

  SessionInfo session;
  session.program = c.program;
  session.args = c.args;
  session.command_line = c.command_line;
  session.version = c.version;
  session.werror = c.options.run.werror;
  session.source_root = c.source_root;
  session.seconds = secs;
  if (stop_signal) session.interrupted_by = interrupt_signal_name();
  session.unchecked.assign(unchecked.begin(), unchecked.end());
  const auto dump = [](const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (reports.json) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", c.program},
                        {"args", c.args},
                        {"options",
                         {{"werror", c.options.run.werror},
                          {"disable", c.options.run.disabled_rules},
                          {"suppressions", c.options.run.suppressions_file},
                          {"check", c.options.run.checks},
                          {"strategy", rt::StrategyValue::format(c.options.run.strategy)}}},
                        {"runs", runs},
                        {"coverage", coverage_json(coverage)},
                        {"total", done},
                        {"failed", failed},
                        {"planned", total},
                        {"shard", shard.text()},
                        {"directory", session_directory()},
                        {"interrupted", stop_signal != 0}};
    if (stop_signal) j["interrupted_by"] = session.interrupted_by;
    if (!session.unchecked.empty()) j["unchecked"] = session.unchecked;
    if (!ReportFiles::commit(reports.json, dump(j) + "\n")) return 2;
  }
  if (reports.sarif && !ReportFiles::commit(reports.sarif, dump(sarif_log(session, records)) + "\n")) return 2;
  if (reports.junit && !ReportFiles::commit(reports.junit, junit_xml(session, records))) return 2;

  // Identical findings of many runs: one table instead of a thousand repeats.
  if (!c.quiet && done > 1 && !summary.empty()) summary.print_table(with_findings, done);
  // Even with -q: a clean session that could not make a check must not read as one that did.
  for (const std::string& line : session.unchecked)
    std::fprintf(stderr, "bsp-check: note: not checked: %s\n", line.c_str());

  if (stop_signal) {
    std::fprintf(stderr, "bsp-check: interrupted by %s after %llu of %llu runs (%llu failed) in %.*f s\n",
                 session.interrupted_by.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), static_cast<unsigned long long>(failed), secs_decimals, secs);
    for (const std::string& line : repro_lines) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
    if (!repro_lines.empty()) print_input_reminder(stdin_feed);
    return 128 + stop_signal;  // as a shell reports a command ended by the signal
  }
  char range[200];
  std::snprintf(range, sizeof range, "p = %s; seeds %llu..%llu%s%s", c.procs_text.c_str(),
                static_cast<unsigned long long>(c.seed), static_cast<unsigned long long>(c.seed + c.seeds - 1),
                shard.count > 1 ? "; shard " : "", shard.count > 1 ? shard.text().c_str() : "");
  if (trace_unwritten && !c.options.run.trace_file.empty()) {
    std::fprintf(stderr, "bsp-check: error: --trace %s: the trace could not be written (the run said why)\n",
                 c.options.run.trace_file.c_str());
    return 2;
  }
  if (failed == 0) {
    if (!c.quiet) {
      std::fprintf(stderr, "bsp-check: %llu run%s clean (%s) in %.*f s", static_cast<unsigned long long>(done),
                   done == 1 ? "" : "s", range, secs_decimals, secs);
      if (c.verbose && secs > 0)
        std::fprintf(stderr, " (%.0f runs/s, -j %u; %zu coverage tuples)", static_cast<double>(done) / secs, jobs,
                     coverage.size());
      if (with_warnings) std::fprintf(stderr, ", %llu with warnings", static_cast<unsigned long long>(with_warnings));
      std::fputs("\n", stderr);
    }
    return 0;
  }
  std::fprintf(stderr, "bsp-check: %llu of %llu run%s FAILED (%s) in %.*f s%s\n",
               static_cast<unsigned long long>(failed), static_cast<unsigned long long>(done), done == 1 ? "" : "s",
               range, secs_decimals, secs,
               !c.keep_going && done < total ? "; stopped at the first failure (--keep-going runs all)" : "");
  for (const std::string& line : repro_lines) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
  print_input_reminder(stdin_feed);
  if (repro_more)
    std::fprintf(stderr, "  ... and %llu more failing run%s%s\n", static_cast<unsigned long long>(repro_more),
                 repro_more == 1 ? "" : "s", c.json_file.empty() ? " (--json FILE lists every run)" : "");
  if (first_failure && c.keep_trace && c.options.run.trace_file.empty() && c.options.run.replay_file.empty() &&
      !interrupted()) {
    // Keep the trace of the first failing run: runs are deterministic, so running that seed
    // again with recording on gives exactly the run that failed.
    RunConfig again = c;
    const std::string base = std::filesystem::path(c.program).filename().string();
    again.options.run.trace_file =
        (std::filesystem::path(c.trace_dir) /
         (base + "-p" + std::to_string(first_failure->first) + "-s" + std::to_string(first_failure->second) + ".trace"))
            .string();
    // A divergence: the recording carries the reference run's output digests (in its header's
    // checker options), so that its replay reports the divergence and shrink keeps it.
    if (first_failure_diverged)
      if (const std::vector<std::uint64_t>* reference = outputs.reference(first_failure->first))
        again.options.run.expected_output = *reference;
    if (first_failure_diverged && first_failure_line) again.options.run.expected_line = *first_failure_line;
    if (first_failure_diverged) again.options.run.expected_file = first_failure_byte;  // a file's divergence
    if (!stream)
      again.options.keep_files = failing_files_dir(c, base, files_temporary);  // a single run's are copied back
    // A single run was recorded already: its own trace is kept.
    if (!temporary_trace.path.empty()) {
      std::error_code error;
      std::filesystem::rename(temporary_trace.path, again.options.run.trace_file, error);
      if (!error) temporary_trace.path.clear();
      else  // another file system: a copy (the temporary one goes at the end)
        std::filesystem::copy_file(temporary_trace.path, again.options.run.trace_file,
                                   std::filesystem::copy_options::overwrite_existing, error);
      if (!error) {
        if (kept_trace_valid(again.options.run.trace_file)) {
          std::fprintf(stderr, "  trace: %s\n  replay: %s\n", again.options.run.trace_file.c_str(),
                       replay_line(c.options, again.options.run.trace_file).c_str());
          if (kept_trace) *kept_trace = again.options.run.trace_file;
        }
        return 1;
      }
    }
    RunOutcome r = run_once(again, *program, first_failure->first, first_failure->second, stdin_feed, false);
    if (interrupted()) {  // the recording was cut short: its trace is not the failing run
      std::error_code ignored;
      std::filesystem::remove(again.options.run.trace_file, ignored);
      return 128 + interrupt_signal();
    }
    if (r.passed && !first_failure_diverged) {
      std::fprintf(stderr, "bsp-check: note: the failing run passed when run again to record it; not deterministic?\n");
      // Concurrent runs of one program share its working directory, files and everything else
      // outside the OS process: a program that creates a fixed file name trips over its twin.
      if (prefetch)
        std::fprintf(stderr,
                     "  this session ran %u runs at once (-j %u), which share the working directory, files and "
                     "other outside state: if the program uses files, run again with -j 1\n",
                     jobs, jobs);
    }
    if ((!r.passed || first_failure_diverged) && kept_trace_valid(again.options.run.trace_file)) {
      std::fprintf(stderr, "  trace: %s\n  replay: %s\n", again.options.run.trace_file.c_str(),
                   replay_line(c.options, again.options.run.trace_file).c_str());
      if (kept_trace) *kept_trace = again.options.run.trace_file;
    }
    if (!stream)
      name_failing_files(c, again.options.keep_files, first_failure->first, first_failure->second, files_temporary);
  }
  return 1;
}

// The run the user asked for (one p and one seed: a single run, or replay's) leaves its files where
// the user looks: it keeps them (in --keep-files DIR, else a temporary folder) and they are copied
// back once the session's checks of it are done (tools/launch/copy_back.hpp). Not where the runs
// share the real directories (the fallback): they wrote there already.
int run_command(const RunConfig& c, std::string* kept_trace) {
  const char* file_view = std::getenv(rt::kFileViewEnvironment);
  if (file_view && std::strcmp(file_view, "refuse") == 0) return run_session(c, kept_trace, false);
  if (c.procs.size() * c.seeds != 1 || c.shard_count > 1) {
    // Many runs: each keeps its files in the session's folder, to be compared across seeds, when
    // outputs are compared and the user named no folder.
    if (!c.options.keep_files.empty() || !compare_outputs_wanted(c)) return run_session(c, kept_trace, false);
    RunConfig comparing = c;
    comparing.options.keep_files = temp_name("files");  // made by the first run that writes a file
    const int status = run_session(comparing, kept_trace, true);
    std::error_code ignored;
    std::filesystem::remove_all(comparing.options.keep_files, ignored);
    return status;
  }
  RunConfig keeping = c;
  std::string temporary;
  if (keeping.options.keep_files.empty()) {
    temporary = temp_name("files");  // made by the run if it writes a file
    keeping.options.keep_files = temporary;
  }
  const timespec since = file_clock_now();
  const int status = run_session(keeping, kept_trace, false);
  const std::string run = (std::filesystem::path(keeping.options.keep_files) /
                           ("p" + std::to_string(c.procs.front()) + "-s" + std::to_string(c.seed)))
                              .string();
  CopyBack back;
  if (!interrupted()) back = copy_back_run_files(run, since);
  std::error_code ignored;
  if (!back.conflicts.empty()) {
    std::fprintf(stderr, "bsp-check: note: %zu file%s changed since the run began, left as %s: ", back.conflicts.size(),
                 back.conflicts.size() == 1 ? "" : "s", back.conflicts.size() == 1 ? "it is" : "they are");
    for (std::size_t i = 0; i < back.conflicts.size(); ++i)
      std::fprintf(stderr, "%s%s", i ? ", " : "", back.conflicts[i].c_str());
    std::fprintf(stderr, "; the run's files are in %s/\n", run.c_str());
  } else if (!temporary.empty()) {
    std::filesystem::remove_all(temporary, ignored);
  }
  return status;
}

QuietRun run_quietly(const RunConfig& c, const std::string& path, int p, std::uint64_t seed) {
  static StdinFeed stdin_feed;  // shrink and explore: each run gets the same input
  QuietRun q;
  q.outcome = run_once(c, path, p, seed, stdin_feed, false);
  q.passed = q.outcome.passed;
  q.reason = q.outcome.reason;
  for (const Finding& f : q.outcome.report.findings)
    if (checker::finding_fails(f, c.options.run.werror)) q.failing_rules.push_back(f.rule);
  return q;
}

}  // namespace bspcheck::cli