// suppressions.hpp: findings a user has decided to accept, one per line of a file:
//   # comment
//   RULE                      every finding of RULE
//   RULE FILE                 findings of RULE with a location in FILE (a path suffix, or * glob)
//   RULE FILE:LINE            ... at that line
// RULE may be "*". A finding is suppressed when some line matches the rule and, if a location is
// given, any of the finding's locations.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::checker {

class Suppressions {
 public:
  // Throws std::runtime_error naming the file and line on unreadable or malformed input, a
  // directory, binary data, a line longer than kMaxLineBytes or a file longer than kMaxFileBytes.
  static constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;
  static constexpr std::size_t kMaxLineBytes = 4096;
  static Suppressions load(const std::string& path);
  static Suppressions parse(const std::string& text, const std::string& origin);
  bool matches(const Finding& f) const;
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    std::string rule;
    std::string file;  // empty: any location
    int line = 0;      // 0: any line
  };
  std::vector<Entry> entries_;
};

}  // namespace bspcheck::checker
