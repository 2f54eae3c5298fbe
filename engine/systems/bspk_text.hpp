// bspk_text.hpp: how BSPk's findings write a call's site, a list of processes and a region's name
// (bspk_runtime.cpp, bspk_transfers.cpp, bspk_sync.cpp).
#pragma once

#include <string>
#include <vector>

#include "runtime/base/site.hpp"

namespace bspcheck::rt::bspk_text {

inline std::string where(const Site& s) {
  if (!s.file) return "?";
  std::string f(s.file);
  return f.substr(f.find_last_of('/') + 1) + ":" + std::to_string(s.line);
}
inline std::string pids(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s.empty() ? "none" : s;
}
inline std::string named(const std::string& name, int idx) { return "(\"" + name + "\", " + std::to_string(idx) + ")"; }

}  // namespace bspcheck::rt::bspk_text
