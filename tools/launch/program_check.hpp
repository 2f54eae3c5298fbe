// program_check.hpp: is PROGRAM something bsp-check can run? Answers before anything starts, so
// that a typo or a binary built without the runtime gets one clear line instead of a crash.
#pragma once

#include <optional>
#include <string>

namespace bspcheck::cli {

struct ProgramCheck {
  std::string path;   // resolved path (PATH lookup for bare names)
  std::string error;  // empty when fine
};

ProgramCheck check_program(const std::string& name);
// The path to run `name` by, or nothing after saying on stderr why it cannot be run (the
// command then exits with status 2).
std::optional<std::string> program_path(const std::string& name);

}  // namespace bspcheck::cli
