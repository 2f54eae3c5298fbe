#include "tools/launch/temp_files.hpp"

#include "tools/launch/temp_janitor.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

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

// The one source of the random parts of names, seeded once per driver.
std::mt19937_64& random_names() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

}  // namespace

std::string temp_template(const std::string& what) { return temp_dir() + "/bsp-check-" + what + "-XXXXXX"; }

std::string temp_file(const std::string& what) {
  std::string path = temp_template(what);
  const int fd = mkstemp(path.data());
  if (fd < 0) return temp_template(what);
  close(fd);
  watch_temporary(path);
  return path;
}

std::string temp_folder(const std::string& what) {
  std::string path = temp_template(what);
  if (!mkdtemp(path.data())) return {};
  watch_temporary(path);
  return path;
}

std::string temp_name(const std::string& what) {
  for (;;) {
    char tail[64];
    std::snprintf(tail, sizeof tail, "-%ld-%016llx", static_cast<long>(getpid()),
                  static_cast<unsigned long long>(random_names()()));
    std::string path = temp_dir() + "/bsp-check-" + what + tail;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      watch_temporary(path);
      return path;
    }
  }
}

std::string temp_name_of_length(const std::string& what, std::size_t length) {
  const std::string prefix = temp_dir() + "/bsp-check-" + what + "-";
  // At least 6 random characters, as mkstemp's; at most a file name's 255.
  if (length < prefix.size() + 6 || length - temp_dir().size() - 1 > 255) return {};
  for (;;) {
    std::string path = prefix;
    while (path.size() < length) path += "0123456789abcdef"[random_names()() & 15];
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      watch_temporary(path);
      return path;
    }
  }
}

}  // namespace bspcheck::cli
