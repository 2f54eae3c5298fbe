// exploration.hpp: searching the schedules of an SPMD function in-process, the same searches
// `bsp-check explore` and `bsp-check shrink` run on a program (docs/exploration.md). For tests
// of BSP libraries that want more than random seeds, and a minimal schedule for a failure.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck {

struct ExploreResult {
  bool failed = false;  // a schedule within the bound fails
  RunResult failing;    // its run, when one failed
  std::vector<std::string>
      deviations;             // its non-default choices, e.g. "choice 3 (superstep 1): message order -> 0 of 4"
  std::size_t schedules = 0;  // schedules run
  bool exhausted = false;     // every schedule within the bound ran (none failed)
};

// Runs spmd under every schedule that differs from the default one in at most `bound` choices
// that can change what it sees (message orders, overlapping writes, when hp operations land),
// until one fails (RunResult::ok() is false) or max_runs schedules have run. As `bsp-check
// explore`, each schedule's per-process output is compared with the default schedule's (the
// first): a difference fails the run with a schedule-divergence finding (unless options.checks is
// off or the rule disabled). options.procs, checks and rules apply; options.seed and strategy do
// not (the search chooses).
ExploreResult explore(const Options& options, const std::function<void()>& spmd, std::size_t bound = 2,
                      std::size_t max_runs = 2000);

struct CoverageResult {
  bool failed = false;                  // a schedule failed
  RunResult failing;                    // its run, when one failed
  std::vector<std::string> deviations;  // its non-default choices
  std::size_t schedules = 0;            // schedules run
  std::size_t tuples = 0;               // distinct (superstep, choice kind, outcome) tuples reached
  std::size_t corpus = 0;               // runs that reached a new tuple
};

// Coverage-guided random search (replay/coverage_search.hpp, docs/exploration.md): the default
// schedule first, then mostly mutants of runs that reached new (superstep, choice kind, outcome)
// tuples, until a run fails or max_runs have run. A run fails when `fails` says so (default:
// RunResult::ok() is false), so a test may also hunt for a wrong result of its own; its output is
// compared with the default schedule's as explore() does (a schedule-divergence finding). The search
// draws everything from `seed`: the same seed and function give the same schedules.
CoverageResult coverage_search(const Options& options, const std::function<void()>& spmd, std::uint64_t seed = 1,
                               std::size_t max_runs = 2000,
                               const std::function<bool(const RunResult&)>& fails = nullptr);

struct ShrinkResult {
  bool failed = false;      // the recorded run fails (else there is nothing to shrink)
  std::string rule;         // the failure kept: the first failing finding's rule
  std::size_t choices = 0;  // choices of the recorded run
  std::size_t kept = 0;     // choices the minimal run keeps; the others take the default
  std::size_t runs = 0;     // runs it took
  RunResult minimal;        // the minimal run, recorded into output_file
};

// Reduces the scheduling choices of a failing run recorded in trace_file (Options::trace_file)
// towards the default schedule while spmd still fails with the same rule, and records the
// minimal run into output_file. options as for the recorded run (procs, seed, checks).
ShrinkResult shrink(const Options& options, const std::function<void()>& spmd, const std::string& trace_file,
                    const std::string& output_file, std::size_t max_runs = 2000);

struct DeterminismResult {
  RunResult first, second;         // the two runs of the same schedule
  std::optional<Finding> finding;  // uncontrolled-nondeterminism: where the second run parted, or
                                   // which process printed differently; nothing when they agree
  std::string error;               // why the check could not run (no temporary file), or empty
  bool deterministic() const { return error.empty() && !finding; }
};

// The determinism self-check `bsp-check run` makes of every session, for an SPMD function: runs
// it twice under the same options (seed, procs, strategy), the second time replaying the first's
// trace so that every call is compared with the recorded one, then compares each process's
// output. A function whose runs part depends on something the seed does not give (the clock, an
// unseeded rand, addresses, uninitialised memory, files), and its seed does not reproduce it.
DeterminismResult check_determinism(const Options& options, const std::function<void()>& spmd);

}  // namespace bspcheck
