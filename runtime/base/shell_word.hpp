// shell_word.hpp: a word for a POSIX shell command line, quoted only when it needs to be, for
// the reproduce lines the runtime and the driver print. Header-only: the driver uses it too.
#pragma once

#include <string>

namespace bspcheck::rt {

inline std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace bspcheck::rt
