#include "checker/suppressions.hpp"

#include <sstream>
#include <stdexcept>

#include "bspcheck/rules.hpp"
#include "runtime/base/file_pattern.hpp"
#include "runtime/base/text_file.hpp"

namespace bspcheck::checker {

Suppressions Suppressions::load(const std::string& path) {
  // Bounded: a suppressions file is a few lines a person wrote; /dev/zero is not one.
  return parse(rt::read_text_file(path, "suppressions file", kMaxFileBytes, kMaxLineBytes), path);
}

Suppressions Suppressions::parse(const std::string& text, const std::string& origin) {
  Suppressions s;
  std::istringstream lines(text);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    Entry e;
    std::string where, extra;
    if (!(words >> e.rule)) continue;
    if (e.rule != "*" && !is_known_rule(e.rule))
      throw std::runtime_error(origin + ":" + std::to_string(n) + ": unknown rule '" + e.rule + "'");
    if (words >> where) {
      // FILE:LINE, LINE from 1 (a sign, 0 or a missing number is a mistake, not part of a path).
      const auto colon = where.rfind(':');
      const std::string number = colon == std::string::npos ? "" : where.substr(colon + 1);
      const std::size_t digits = number.find_first_not_of("+-");
      if (colon != std::string::npos &&
          (number.empty() || (digits != std::string::npos && digits <= 1 &&
                              number.find_first_not_of("0123456789", digits) == std::string::npos))) {
        if (number.empty())
          throw std::runtime_error(origin + ":" + std::to_string(n) + ": expected a line number after '" + where +
                                   "' (FILE:LINE, LINE from 1 to 999999999)");
        if (digits != 0 || number.size() > 9 || number.find_first_not_of('0') == std::string::npos)
          throw std::runtime_error(origin + ":" + std::to_string(n) + ": line number " + number +
                                   " is out of range (from 1 to 999999999)");
        e.line = std::stoi(number);
        where.erase(colon);
      }
      e.file = where;
    }
    if (words >> extra) throw std::runtime_error(origin + ":" + std::to_string(n) + ": expected 'RULE [FILE[:LINE]]'");
    s.entries_.push_back(std::move(e));
  }
  return s;
}

bool Suppressions::matches(const Finding& f) const {
  for (const Entry& e : entries_) {
    if (e.rule != "*" && e.rule != f.rule) continue;
    if (e.file.empty()) return true;
    for (const Location& l : f.locations)
      if (rt::file_matches(e.file, l.file) && (e.line == 0 || e.line == l.line)) return true;
  }
  return false;
}

}  // namespace bspcheck::checker
