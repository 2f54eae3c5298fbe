#include "checker/suppressions.hpp"

#include <fnmatch.h>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace bspcheck::checker {

bool is_known_rule(const std::string& rule) {
  static const std::set<std::string> rules = {
      "reg-count-mismatch", "reg-pop-mismatch", "reg-pop-unknown", "reg-negative-size", "reg-not-active",
      "reg-unregistered", "bounds-put", "bounds-get", "bad-pid", "tagsize-mismatch", "superstep-mismatch",
      "hp-src-modified", "hp-dst-conflict", "hp-dst-read", "get-dst-early-read", "hpmove-stale", "api-misuse",
      "abort", "crash", "timeout", "expect-mismatch", "global-shared", "put-collision", "queue-unconsumed", "move-truncated",
      "reg-site-mismatch", "reg-order-portability", "reg-leak", "level1-hygiene", "schedule-divergence", "replay-divergence"};
  return rules.count(rule) > 0;
}

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

namespace {

bool file_matches(const std::string& pattern, const std::string& file) {
  if (pattern.find_first_of("*?[") != std::string::npos) return fnmatch(pattern.c_str(), file.c_str(), 0) == 0;
  // A path suffix at a component boundary: "ring.c" matches "/src/ring.c".
  if (file.size() < pattern.size()) return false;
  if (file.compare(file.size() - pattern.size(), pattern.size(), pattern) != 0) return false;
  return file.size() == pattern.size() || file[file.size() - pattern.size() - 1] == '/';
}

}  // namespace

bool Suppressions::matches(const Finding& f) const {
  for (const Entry& e : entries_) {
    if (e.rule != "*" && e.rule != f.rule) continue;
    if (e.file.empty()) return true;
    for (const Location& l : f.locations)
      if (file_matches(e.file, l.file) && (e.line == 0 || e.line == l.line)) return true;
  }
  return false;
}

}  // namespace bspcheck::checker
