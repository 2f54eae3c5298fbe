// replay_command.hpp: `bsp-check replay TRACE [-- PROGRAM ARGS...]`.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "replay". Returns the exit status (0 clean, 1 failed or diverged, 2 bad usage or a
// bad trace).
int replay_command(const std::vector<std::string>& args, const char* version);

}  // namespace bspcheck::cli
