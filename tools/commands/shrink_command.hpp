// shrink_command.hpp: `bsp-check shrink TRACE`: the few scheduling choices a failure needs.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "shrink". Returns 0 when a minimal trace was written, 1 when the trace's run does
// not fail (nothing to shrink), 2 for bad usage or a bad trace.
int shrink_command(const std::vector<std::string>& args, const char* version);

}  // namespace bspcheck::cli
