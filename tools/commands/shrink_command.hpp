// shrink_command.hpp: `bsp-check shrink TRACE`: the few scheduling choices a failure needs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "replay/choice_script.hpp"

namespace bspcheck::cli {

// args[0] is "shrink". Returns 0 when a minimal trace was written, 1 when the trace's run does
// not fail (nothing to shrink), 2 for bad usage or a bad trace.
int shrink_command(const std::vector<std::string>& args, const char* version);

// Does a run that failed with failing_rules fail the way the recorded run did: with its first
// failing rule `target`, or (target empty: it failed without an error finding) without any?
bool same_failure(const std::string& target, const std::vector<std::string>& failing_rules);

// What shrink found, as it prints it: how the run fails (`what`) with the kept choices of all
// `choices`, in how many runs; each kept choice as the minimal run made it (`minimal`, its own
// trace's choices: choices are followed by position); the critical superstep. divergence: the
// failure is a schedule-divergence kept with its reference run's output.
std::string shrink_report(const std::string& what, const std::vector<std::size_t>& kept,
                          const std::vector<trace::RecordedChoice>& choices,
                          const std::vector<trace::RecordedChoice>& minimal, std::size_t runs, std::size_t max_runs,
                          bool divergence);

}  // namespace bspcheck::cli
