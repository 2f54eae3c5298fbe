// output_comparison.hpp: schedule-divergence (docs/checks.md#schedule-divergence). Separate
// processes print the same output under every schedule unless the program depends on the
// schedule: each process's output of a run is compared, as a digest, with that of the first clean
// run at the same p (the reference). `bsp-check run` compares seeds (tools/across_runs/output_divergence.*),
// `bsp-check explore` and the in-process searches (engine/host/exploration_api.cpp) compare every
// schedule with the default schedule, which runs first.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::checker {

class OutputComparison {
 public:
  // Is the comparison on: the checker runs and the rule is not disabled? (A command may also
  // turn it off for programs whose output depends on the schedule.)
  static bool wanted(bool checks, const std::vector<std::string>& disabled_rules);

  // Compares the per-process digests of a clean run at p with the reference of p (the first run
  // compared becomes the reference). Returns the first process whose output differs, with the
  // reference run's id (its seed). No digests (the run did not report them): nothing compared.
  std::optional<std::pair<int, std::uint64_t>> compare(int p, std::uint64_t run_id,
                                                       const std::vector<std::uint64_t>& digests);
  bool has_reference(int p) const { return reference_.count(p) > 0; }
  // The reference run's digests of p (nullptr before its first run compared).
  const std::vector<std::uint64_t>* reference(int p) const {
    const auto it = reference_.find(p);
    return it == reference_.end() ? nullptr : &it->second.second;
  }

 private:
  std::map<int, std::pair<std::uint64_t, std::vector<std::uint64_t>>> reference_;  // p -> run id, digests
};

// The lines of one process's captured output (RunResult::output), for first_line_difference.
std::vector<std::string> output_lines(const std::string& text);

// "first difference on stdout, line 3: NAME_A prints "x", NAME_B prints "y"": the first line where
// two outputs of one process differ (`where`: "on stdout", "in its output"); nothing when equal.
std::optional<std::string> first_line_difference(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                                 const std::string& where, const std::string& name_a,
                                                 const std::string& name_b);

// What explore says when process pid prints other output under a schedule than under the default
// one; `difference` is first_line_difference's line.
std::string default_schedule_divergence(int pid, const std::string& difference);
// That, as the schedule-divergence finding of the failing schedule's run (explore's reports, the
// in-process searches).
Finding default_schedule_divergence_finding(int pid, const std::string& difference, int superstep);

}  // namespace bspcheck::checker
