// check_run_beside.hpp: the determinism check's run of a session's first run (a single run,
// `bsp-check run -p P --seed S`, or the first of many), started beside that run instead of after
// it (issue 47, goal 6): on two cores a one-run session then takes about the wall time of one run,
// not of two.
//
// The two runs must have the same heap below the program's first block, or a program that sends
// or prints a heap address (a cBSP destination its receiver tells the sender) parts by
// bsp-check's doing. What the runtime allocates for its options depends on the length of their
// text, not on the characters: the check's run records into a trace and keeps its files in a
// folder whose names are exactly as long as the run's own (tools/launch/temp_files.hpp,
// temp_name_of_length). Where that cannot be, or where the runs could not be kept apart, nothing
// starts and the check runs after the run, in its place (tools/across_runs/determinism_check.cpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "tools/cli/run_config.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

// The options of the determinism check's run of the run `c` describes (the session's first):
// not kept, not replayed nor guided; its trace and kept files are set by the caller.
RunConfig check_run_config(const RunConfig& c);

class CheckRunBeside {
 public:
  // Starts the check's run of (p, seed), whose own run records into own_trace (the trace's path,
  // a pattern's already filled in) and keeps its files under c.options.keep_files (or none).
  // Nothing when the check cannot run beside: fewer than two runs at once (-j 1, one core), a
  // standard input streamed to both, runs that share the real directories on request
  // (BSPCHECK_FILE_VIEW=refuse), or no temporary names of the lengths needed. Where the kernel
  // refuses the check's run a view of its own files, it ends before the program's code runs and
  // outcome() has nothing.
  static std::unique_ptr<CheckRunBeside> start(const RunConfig& c, const std::string& program, int p,
                                               std::uint64_t seed, StdinFeed& in, const std::string& own_trace);
  // Ends the run now (its outcome is not wanted: the run it checks was stopped from outside, or
  // will not be checked), whether it has started yet or not.
  void cancel();
  ~CheckRunBeside();  // cancels the run unless its outcome was taken, then removes its trace and files
  CheckRunBeside(const CheckRunBeside&) = delete;
  CheckRunBeside& operator=(const CheckRunBeside&) = delete;

  // Waits for the run to end; nothing when it could not be kept apart from the run it checks: the
  // check then runs after that run, in its place.
  const RunOutcome* outcome();
  const std::string& trace() const { return trace_; }  // its recording
  const std::string& files() const { return files_; }  // the folder of its kept files, or empty
  const RunConfig& config() const { return config_; }  // the options it ran with

 private:
  CheckRunBeside() = default;
  RunConfig config_;
  std::string trace_, files_;
  RunOutcome outcome_;
  bool ran_ = false;
  std::mutex child_mutex_;  // the run's child and whether it was cancelled, set from two threads
  pid_t child_ = 0;         // negative: the child's process group
  bool cancelled_ = false;
  std::thread runner_;
};

}  // namespace bspcheck::cli
