// explore_command.hpp: `bsp-check explore [--bound K] PROGRAM`: every schedule that differs in
// at most K of the choices that can change what the program sees.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "explore". Returns 0 when no schedule failed, 1 at the first failure (with its
// trace), 2 for bad usage.
int explore_command(const std::vector<std::string>& args, const char* version);

}  // namespace bspcheck::cli
