// cli_parse.hpp: how bsp-check and each of its subcommands hand their arguments to CLI11.
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bspcheck::cli {

// Parses args (without the program or subcommand name). Returns the exit status when the command
// ends here (0 after --help or --version, 2 for bad usage, CLI11 having printed why) and nothing
// when it goes on.
// The help of a command whose description has its own Usage line (with PROGRAM, TRACE, ...):
// CLI11's second one ("Usage: bsp-check [OPTIONS]") is left out.
struct OwnUsageFormatter : CLI::Formatter {
  std::string make_usage(const CLI::App*, std::string) const override { return ""; }
};

inline std::optional<int> parse_arguments(CLI::App& app, const std::vector<std::string>& args) {
  if (app.get_description().find("Usage:") != std::string::npos) app.formatter(std::make_shared<OwnUsageFormatter>());
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  // Bad usage is one line that names the command, the option and what it allows.
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return "bsp-check: error: " + std::string(e.what()) + " (" + a->get_name() + " --help lists the options)\n";
  });
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

// The PROGRAM and ARGS of a prefix command (run, explore) from CLI11's remaining words: an
// optional "--" in front is dropped, and an unknown option is not taken for a program's name.
// Returns the exit status when the words are bad usage (having said why).
inline std::optional<int> program_and_args(const CLI::App& app, std::vector<std::string>& words) {
  if (!words.empty() && words.front() == "--") words.erase(words.begin());
  else if (!words.empty() && words.front().size() > 1 && words.front()[0] == '-') {
    std::cerr << "bsp-check: error: unknown option '" << words.front() << "' (" << app.get_name()
              << " --help lists the options; a program whose name starts with '-' is given as ./" << words.front()
              << ")\n";
    return 2;
  }
  if (words.empty()) {
    std::cerr << "bsp-check: error: no PROGRAM given (usage: " << app.get_name() << " [options] PROGRAM [ARGS...])\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace bspcheck::cli
