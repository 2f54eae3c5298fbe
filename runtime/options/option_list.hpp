// option_list.hpp: the syntax of an option string such as BSPCHECK_OPTIONS
// ("seed=7:procs=4:disable=put-collision,reg-leak"): items separated by ':', each key=value, and
// list values separated by ','. The runtime reads it from the environment; the driver reads the
// checker part of it back from a trace header. Header-only, because the driver does not link
// the runtime library.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bspcheck::rt {

// The non-empty pieces of `text` between `separator`s.
inline std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> pieces;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(separator, start);
    if (end == std::string::npos) end = text.size();
    if (end > start) pieces.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return pieces;
}

// "k1=v1:k2=v2" -> {{k1, v1}, {k2, v2}}. An item without '=' throws std::invalid_argument.
inline std::vector<std::pair<std::string, std::string>> parse_key_values(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> items;
  for (const std::string& item : split_list(text, ':')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got '" + item + "'");
    items.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return items;
}

}  // namespace bspcheck::rt
