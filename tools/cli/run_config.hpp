// run_config.hpp: what `bsp-check run` (and replay, shrink, explore through it) was asked to do:
// the flags of a session of runs, as parsed and checked by the commands.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/options/options.hpp"

namespace bspcheck::cli {

struct RunConfig {
  std::vector<int> procs;  // processors available, one set of runs each
  std::string procs_text;  // as given, for messages
  std::uint64_t seed = 1;  // the first seed
  std::uint64_t seeds = 1;
  bool keep_going = false;
  std::string json_file;
  std::string prefix;  // passed as BSPCHECK_PREFIX: unlike option values it may hold ':'
  // The options of every run (runtime/options/options.def): the flags that have a row set them through
  // the table, which also prints them into each run's BSPCHECK_OPTIONS and the reproduce lines.
  // seed and procs are set per run.
  rt::ProgramOptions options;
  bool verbose = false;             // show the output of every run, not only of failing ones
  bool quiet = false;               // no progress lines
  std::string sarif_file;           // SARIF 2.1.0 log of the distinct findings
  std::string junit_file;           // JUnit XML, one test case per run
  std::string source_root;          // SARIF's %SRCROOT% (empty: the working directory)
  std::string command_line;         // how bsp-check was called, for the reports
  std::string version;              // bsp-check's, for the reports
  std::string trace_dir = ".";      // where the trace of the first failing run is kept
  bool keep_trace = true;           // keep that trace (re-running the failing seed with --trace)
  bool fork_server = true;          // many runs fork from one start of the program at bsp_begin
  bool file_view_required = false;  // a run that gets no view of its own files ends before main
  // Told each child a run starts anew (its pid, whether it leads its own process group), so that
  // the one who asked can end it early (tools/across_runs/check_run_beside.hpp).
  std::function<void(pid_t, bool)> on_child_started;
  unsigned jobs = 0;                       // runs at once (-j); 0: one per core it may use (cores_available.hpp)
  bool schedule_dependent_output = false;  // do not compare per-process output across seeds
  // uncontrolled-nondeterminism (tools/across_runs/determinism_check.hpp): run a seed twice and compare the
  // traces: 0 never, 1 the session's first run (the default), 2 every run.
  int determinism_check = 1;
  std::uint64_t shard_index = 0;  // --shard I/N: run only the runs numbered I modulo N (tools/launch/shard.hpp)
  std::uint64_t shard_count = 1;
  std::string program;
  std::vector<std::string> args;
  bool program_replaces_traced = false;  // replay TRACE -- PROGRAM: not the program the trace names
};

}  // namespace bspcheck::cli
