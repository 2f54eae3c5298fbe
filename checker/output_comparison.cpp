#include "checker/output_comparison.hpp"

#include <algorithm>

#include "bspcheck/rules.hpp"

namespace bspcheck::checker {

bool OutputComparison::wanted(bool checks, const std::vector<std::string>& disabled_rules) {
  return checks && std::find(disabled_rules.begin(), disabled_rules.end(), rule_id(Rule::schedule_divergence)) ==
                       disabled_rules.end();
}

std::optional<std::pair<int, std::uint64_t>> OutputComparison::compare(int p, std::uint64_t run_id,
                                                                       const std::vector<std::uint64_t>& digests) {
  if (digests.empty()) return std::nullopt;
  auto [ref, first] = reference_.try_emplace(p, run_id, digests);
  if (first || ref->second.second.size() != digests.size()) return std::nullopt;
  for (std::size_t k = 0; k < digests.size(); ++k)
    if (digests[k] != ref->second.second[k]) return std::make_pair(static_cast<int>(k), ref->second.first);
  return std::nullopt;
}

std::optional<std::string> first_line_difference(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                                 const std::string& where, const std::string& name_a,
                                                 const std::string& name_b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return std::nullopt;
  auto show = [](const std::vector<std::string>& l, std::size_t k) {
    return k < l.size() ? "\"" + l[k] + "\"" : std::string("(no line)");
  };
  return "first difference " + where + ", line " + std::to_string(i + 1) + ": " + name_a + " prints " + show(a, i) +
         ", " + name_b + " prints " + show(b, i);
}

std::string default_schedule_divergence(int pid, const std::string& difference) {
  return "process " + std::to_string(pid) +
         " prints other output than under the default schedule (explore's first): " + difference;
}

Finding default_schedule_divergence_finding(int pid, const std::string& difference, int superstep) {
  return Finding{rule_id(Rule::schedule_divergence),
                 rule_severity(Rule::schedule_divergence),
                 default_schedule_divergence(pid, difference),
                 {pid},
                 superstep,
                 {}};
}

std::vector<std::string> output_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

}  // namespace bspcheck::checker
