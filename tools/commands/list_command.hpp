// list_command.hpp: the catalogues the driver prints, `bsp-check --list-rules [--json]` (the rule
// catalogue, include/bspcheck/rules.def) and `bsp-check --list-options [--json]` (the options
// table, runtime/options/options.def): a text table or JSON, for users, scripts and the docs tests.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "--list-rules" or "--list-options". Return the exit status (0, or 2 for bad usage).
int list_rules_command(const std::vector<std::string>& args);
int list_options_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
