// reproduce_command.hpp: the `bsp-check run` command line that runs exactly one run again,
// printed with its findings and in the reports.
#pragma once

#include <cstdint>
#include <string>

#include "tools/cli/run_config.hpp"

namespace bspcheck::cli {

// A word for a shell command line, quoted when it needs to be.
std::string shell_quote(const std::string& s);

// "bsp-check run -p P --seed S [the flags that change a run] PROGRAM ARGS..."; with seeds > 1,
// the session of that many seeds from S ("--seed S --seeds N"), e.g. what a comparison of
// outputs between two seeds needs to fail again.
std::string repro_command(const RunConfig& c, int p, std::uint64_t seed, std::uint64_t seeds = 1);

// " --timeout S" when these options have a time limit, else "". A trace's header keeps only the
// checker options (replay/trace_format.hpp), so a command that replays or re-explores a run gives
// its time limit again: without it, the replay of a run that timed out would never end.
std::string timeout_flag(const rt::ProgramOptions& o);
// "bsp-check replay [--timeout S] TRACE": the replay of a trace recorded under these options.
std::string replay_line(const rt::ProgramOptions& o, const std::string& trace);

}  // namespace bspcheck::cli
