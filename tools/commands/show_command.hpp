// show_command.hpp: `bsp-check show TRACE`: a recorded run superstep by superstep, with its BSP
// and E-BSP costs, and optionally a timeline for Perfetto / chrome://tracing.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "show". Returns the exit status (0, or 2 for bad usage or a bad trace).
int show_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
