#include "tools/temp_files.hpp"

#include <cstdlib>
#include <filesystem>

namespace bspcheck::cli {

namespace {

// $TMPDIR, read once (main reads it before any thread starts): the driver's threads set other
// variables for the children they start, and a getenv that ran while setenv grew the environment
// read freed memory (a driver crash seen under AddressSanitizer).
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

void read_temp_dir() { temp_dir(); }

std::string temp_template(const std::string& what) { return temp_dir() + "/bsp-check-" + what + "-XXXXXX"; }

}  // namespace bspcheck::cli
