#include "tools/launch/program_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string_view>

namespace bspcheck::cli {

namespace {

std::string find_in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    std::size_t colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return name;
}

}  // namespace

ProgramCheck check_program(const std::string& name) {
  ProgramCheck c;
  if (name.empty()) {  // '' would be looked up as the current directory
    c.error = "the program name is empty";
    return c;
  }
  c.path = find_in_path(name);
  struct stat st {};
  if (stat(c.path.c_str(), &st) != 0) {
    c.error = name + ": no such file";
    return c;
  }
  if (S_ISDIR(st.st_mode)) {
    c.error = name + ": is a directory, not a program";
    return c;
  }
  if (access(c.path.c_str(), X_OK) != 0) {
    c.error = name + ": not executable";
    return c;
  }
  std::ifstream f(c.path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 4 || bytes.compare(0, 4,
                                        "\x7f"
                                        "ELF") != 0) {
    c.error = name + ": not an ELF executable (build it with bspcc, bspcxx or CMake's BSPCheck::bsp)";
    return c;
  }
  // A program linked with the runtime names the library (dynamic linking) or carries its
  // strings (static linking).
  if (bytes.find("libbspcheck") == std::string::npos && bytes.find("BSPCHECK_OPTIONS") == std::string::npos) {
    c.error = name +
              ": not linked with the bsp-check runtime (build it with bspcc, bspcxx or link "
              "CMake's BSPCheck::bsp)";
    return c;
  }
  return c;
}

std::optional<std::string> program_path(const std::string& name) {
  ProgramCheck c = check_program(name);
  if (c.error.empty()) return std::move(c.path);
  std::cerr << "bsp-check: error: " << c.error << "\n";
  return std::nullopt;
}

}  // namespace bspcheck::cli
