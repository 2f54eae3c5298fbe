// cli_parse.hpp: how bsp-check and each of its subcommands hand their arguments to CLI11.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bspcheck::cli {

// Parses args (without the program or subcommand name). Returns the exit status when the command
// ends here (0 after --help or --version, 2 for bad usage, CLI11 having printed why) and nothing
// when it goes on.
inline std::optional<int> parse_arguments(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

}  // namespace bspcheck::cli
