// list_rules_command.hpp: `bsp-check --list-rules [--json]`: the rule catalogue
// (include/bspcheck/rules.def) as a text table or as JSON, for users, scripts and the docs tests.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "--list-rules". Returns the exit status (0, or 2 for bad usage).
int list_rules_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
