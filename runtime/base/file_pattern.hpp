// file_pattern.hpp: how a user names source files (suppressions, the `wrappers` option): a glob
// ("src/*.c") or a path suffix at a component boundary ("ring.c" matches "/src/ring.c").
#pragma once

#include <fnmatch.h>

#include <string>

namespace bspcheck::rt {

inline bool file_matches(const std::string& pattern, const std::string& file) {
  if (pattern.find_first_of("*?[") != std::string::npos) return fnmatch(pattern.c_str(), file.c_str(), 0) == 0;
  if (file.size() < pattern.size()) return false;
  if (file.compare(file.size() - pattern.size(), pattern.size(), pattern) != 0) return false;
  return file.size() == pattern.size() || file[file.size() - pattern.size() - 1] == '/';
}

}  // namespace bspcheck::rt
