// determinism_check.hpp: uncontrolled-nondeterminism, the driver's check that a seed is a whole
// description of a run. bsp-check draws every choice BSPlib leaves open from the seed; a program
// that also depends on the wall clock, an unseeded rand, its pid, addresses, uninitialised memory,
// threads or files that change is not reproduced by its seed, and neither are its findings nor
// its output. The check runs one (p, seed) twice, recording both, and compares the traces call
// for call and then what each process printed: the first call where they part, or the first
// line printed differently, is the finding (shuttle's UncontrolledNondeterminismCheck is the
// model), with the likely source read from what differs. Only the common length of the traces
// counts, and runs stopped by a time limit are not compared: they end wherever the clock stopped
// them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bspcheck/bspcheck.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

struct DeterminismFinding {
  Finding finding;
  // The runs printed differently (their traces agreed): the output is not a function of the
  // seed, so comparing it across seeds (schedule-divergence) would blame the schedule.
  bool output_differs = false;
};

// A run of the session that was recorded (a single run's own, --trace or a temporary trace):
// the check then needs one more run, not two.
struct RecordedRun {
  const RunOutcome& outcome;
  std::string trace;
  // The run wrote only its trace's digest (trace_digest): so does the check's run, and the two
  // digests are compared; where they differ, two more runs are recorded whole to say where.
  bool digest = false;
};

class CheckRunBeside;

// Runs (p, seed) twice, or once more than `first` (unless `beside`, started with `first`, ran it:
// tools/across_runs/check_run_beside.hpp), and returns the finding when the runs differ; nothing
// when they agree or could not both be recorded.
std::optional<DeterminismFinding> check_determinism(const RunConfig& c, const std::string& path, int p,
                                                    std::uint64_t seed, StdinFeed& in,
                                                    const std::optional<RecordedRun>& first = std::nullopt,
                                                    CheckRunBeside* beside = nullptr);

// Two runs of the same (p, seed), a and b, printed differently: the finding, naming the first
// differing line and what it likely comes from. a and b were captured with the prefix "[%p] "
// (else they are run again so); pid is the first process whose digest differs.
Finding output_nondeterminism_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, int pid,
                                      const RunOutcome* a, const RunOutcome* b, StdinFeed& in);

// What two differing output lines of one seed's runs likely come from: the process id (a, b
// are the runs' OS process ids), an address, the wall clock, a timing, or another source.
std::string likely_output_source(const std::string& line_a, const std::string& line_b, long pid_a, long pid_b);

// The first process whose digest differs between two reports of one p, or -1.
int first_differing_output(const checker::RunReport& a, const checker::RunReport& b);

}  // namespace bspcheck::cli
