// replay_command.hpp: `bsp-check replay TRACE [-- PROGRAM ARGS...]`.
#pragma once

#include <string>
#include <vector>

#include "replay/trace_format.hpp"
#include "tools/commands/run_command.hpp"

namespace bspcheck::cli {

// args[0] is "replay". Returns the exit status (0 clean, 1 failed or diverged, 2 bad usage or a
// bad trace).
int replay_command(const std::vector<std::string>& args, const char* version);

// The run a trace recorded, as a RunConfig (program from the trace unless `program` is given,
// p, seed, strategy and the checker options); false with error when it names no program.
bool config_from_trace(const trace::Header& h, const std::string& trace_path, const std::vector<std::string>& program,
                       RunConfig& c, std::string& error);

}  // namespace bspcheck::cli
