#include "checker/suppressions.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bspcheck/rules.hpp"
#include "runtime/file_pattern.hpp"

namespace bspcheck::checker {

Suppressions Suppressions::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read the suppressions file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
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
      auto colon = where.rfind(':');
      if (colon != std::string::npos && colon + 1 < where.size() &&
          where.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
        // A line number beyond any source file is a mistake worth naming, not a stoi exception.
        const std::string number = where.substr(colon + 1);
        if (number.size() > 9)
          throw std::runtime_error(origin + ":" + std::to_string(n) + ": line number " + number +
                                   " is out of range (at most 999999999)");
        e.line = std::stoi(number);
        where.erase(colon);
      }
      e.file = where;
    }
    if (words >> extra)
      throw std::runtime_error(origin + ":" + std::to_string(n) + ": expected 'RULE [FILE[:LINE]]'");
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
