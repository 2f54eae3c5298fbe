// run_config.hpp: what `bsp-check run` (and replay, shrink, explore through it) was asked to do:
// the flags of a session of runs, as parsed and checked by the commands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bspcheck::cli {

struct RunConfig {
  std::vector<int> procs;         // processors available, one set of runs each
  std::string procs_text;         // as given, for messages
  std::uint64_t seed = 1;
  std::uint64_t seeds = 1;
  bool keep_going = false;
  std::string json_file;
  std::string prefix;
  double timeout = 0;             // seconds per run, 0 = none
  std::string stack_size;         // passed through, e.g. "256k"
  std::string strategy = "random";
  int pct_depth = 3;              // strategy pct: bug depth aimed at
  std::uint64_t pct_steps = 1000; // strategy pct: estimate of a run's decisions
  bool verbose = false;           // show the output of every run, not only of failing ones
  bool quiet = false;             // no progress lines
  std::string sarif_file;         // SARIF 2.1.0 log of the distinct findings
  std::string junit_file;         // JUnit XML, one test case per run
  bool werror = false;            // warnings fail a run
  std::vector<std::string> disabled_rules;  // rule ids the runtime does not report
  std::string suppressions_file;  // findings the runtime drops (checker/suppressions.hpp)
  bool no_check = false;          // run without the checker (runtime only)
  bool virtual_time = false;      // the C library's clocks are virtual (engine/virtual_clock.cpp)
  bool grant_fewer = false;       // bsp_begin may grant fewer processes (a choice of the schedule)
  bool time_jitter = false;       // virtual bsp_time with a seeded jitter (opt-in; docs/semantics.md)
  std::string globals;            // "private" or "shared"; empty: the dialect's default (docs/semantics.md)
  std::string command_line;       // how bsp-check was called, for the reports
  std::string version;            // bsp-check's, for the reports
  std::string trace_file;         // record the (single) run into this trace
  bool measure_work = false;      // traces hold each process's CPU time per superstep (bsp-check show)
  std::string trace_dir = ".";    // where the trace of the first failing run is kept
  bool keep_trace = true;         // keep that trace (re-running the failing seed with --trace)
  std::string replay_file;        // replay this trace instead of scheduling by seed
  std::string guide_file;         // follow this choice script leniently (shrink, explore)
  std::string guide_log;          // explore: where the run logs the choices it was offered
  bool fork_server = true;        // many runs fork from one start of the program at bsp_begin
  unsigned jobs = 0;              // runs at once (-j); 0: one per core (tools/run_prefetch.hpp)
  bool schedule_dependent_output = false;  // do not compare per-process output across seeds
  // uncontrolled-nondeterminism (tools/determinism_check.hpp): run a seed twice and compare the
  // traces: 0 never, 1 the session's first run (the default), 2 every run.
  int determinism_check = 1;
  std::uint64_t shard_index = 0;  // --shard I/N: run only the runs numbered I modulo N (tools/shard.hpp)
  std::uint64_t shard_count = 1;
  std::string program;
  std::vector<std::string> args;
};

}  // namespace bspcheck::cli
