#include "tools/launch/temp_files.hpp"

#include <cstdlib>
#include <filesystem>

namespace bspcheck::cli {

namespace {

// $TMPDIR, read once: every temporary file of a session goes to the same folder.
const std::string& temp_dir() {
  static const std::string dir = [] {
    std::string d = "/tmp";
    std::error_code ec;
    if (const char* t = std::getenv("TMPDIR"); t && *t && std::filesystem::is_directory(t, ec)) d = t;
    if (d.size() > 1 && d.back() == '/') d.pop_back();
    return d;
  }();
  return dir;
}

}  // namespace

std::string temp_template(const std::string& what) { return temp_dir() + "/bsp-check-" + what + "-XXXXXX"; }

}  // namespace bspcheck::cli
