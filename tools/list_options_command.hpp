// list_options_command.hpp: `bsp-check --list-options [--json]`: the options table
// (runtime/options.def) as a text table or as JSON, for users, scripts and the docs test.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "--list-options". Returns the exit status (0, or 2 for bad usage).
int list_options_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
