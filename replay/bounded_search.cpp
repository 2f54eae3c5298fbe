#include "replay/bounded_search.hpp"

#include <fstream>

namespace bspcheck::trace {

std::optional<BoundedSearch::Schedule> BoundedSearch::next() {
  if (todo_.empty()) return std::nullopt;
  Schedule s = std::move(todo_.back());
  todo_.pop_back();
  return s;
}

void BoundedSearch::ran(const Schedule& s, const std::vector<OfferedChoice>& offered) {
  for (std::size_t i = offered.size(); i-- > s.next;) {
    if (offered[i].n < 2) continue;
    if (s.deviations >= bound_) {
      cut_ = true;  // schedules beyond the bound exist
      break;
    }
    for (unsigned v = 0; v + 1 < offered[i].n; ++v) {  // n - 1 is the default
      Schedule child;
      for (std::size_t k = 0; k < i; ++k) {
        child.kinds.push_back(offered[k].kind);
        child.values.push_back(offered[k].value);
      }
      child.kinds.push_back(offered[i].kind);
      child.values.push_back(v);
      child.deviations = s.deviations + 1;
      child.next = i + 1;
      todo_.push_back(std::move(child));
    }
  }
}

GuidedScheduler::Script BoundedSearch::script(const Schedule& s) {
  GuidedScheduler::Script script;
  for (std::size_t i = 0; i < s.values.size(); ++i)
    script.entries.push_back({static_cast<std::uint8_t>(s.kinds[i]), true, s.values[i]});
  return script;
}

void BoundedSearch::write_script(const std::string& path, const Schedule& s) {
  std::ofstream out(path);
  for (std::size_t i = 0; i < s.values.size(); ++i) out << s.kinds[i] << ' ' << s.values[i] << '\n';
}

std::vector<std::string> BoundedSearch::describe(const Schedule& s, const std::vector<OfferedChoice>& offered) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < s.values.size(); ++i)
    if (i < offered.size() && s.values[i] != offered[i].n - 1)
      lines.push_back("choice " + std::to_string(i + 1) + ": " + choice_kind_text(s.kinds[i]) + " -> " +
                      std::to_string(s.values[i]) + " of " + std::to_string(offered[i].n));
  return lines;
}

}  // namespace bspcheck::trace
