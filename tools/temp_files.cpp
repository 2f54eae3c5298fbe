#include "tools/temp_files.hpp"

#include <cstdlib>
#include <filesystem>

namespace bspcheck::cli {

std::string temp_template(const std::string& what) {
  std::string dir = "/tmp";
  std::error_code ec;
  if (const char* t = std::getenv("TMPDIR"); t && *t && std::filesystem::is_directory(t, ec)) dir = t;
  if (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/bsp-check-" + what + "-XXXXXX";
}

}  // namespace bspcheck::cli
