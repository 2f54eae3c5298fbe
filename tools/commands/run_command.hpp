// run_command.hpp: `bsp-check run`: the program under many seeds and process counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/cli/reproduce_command.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

// Returns the exit status: 0 clean, 1 a run failed, 2 bad usage. kept_trace, when given, receives
// the trace kept of the first failing run (empty when none was kept), for `run --debug`.
int run_command(const RunConfig& config, std::string* kept_trace = nullptr);

// One quiet run of c.program (already checked) at (p, seed): did it pass, and the rules of the
// error findings (or of every finding with werror) it reported; reason when it failed otherwise.
struct QuietRun {
  bool passed = false;
  std::vector<std::string> failing_rules;
  std::string reason;
  RunOutcome outcome;  // the whole run: its report (output digests) and captured output
};
QuietRun run_quietly(const RunConfig& c, const std::string& path, int p, std::uint64_t seed);

}  // namespace bspcheck::cli
