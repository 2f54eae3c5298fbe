#include "replay/shrink.hpp"

#include <algorithm>

namespace bspcheck::trace {

ShrinkOutcome shrink_choices(std::size_t n_choices, const std::function<bool(const std::vector<std::size_t>&)>& fails,
                             std::size_t max_runs) {
  ShrinkOutcome out;
  auto run = [&](const std::vector<std::size_t>& kept) {
    ++out.runs;
    return fails(kept);
  };
  if (run({})) return out;
  for (std::size_t i = 0; i < n_choices; ++i) out.kept.push_back(i);
  std::size_t n = 2;
  while (out.kept.size() >= 2 && out.runs < max_runs) {
    const std::size_t chunk = (out.kept.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t start = 0; start < out.kept.size() && out.runs < max_runs; start += chunk) {
      std::vector<std::size_t> rest;
      for (std::size_t k = 0; k < out.kept.size(); ++k)
        if (k < start || k >= start + chunk) rest.push_back(out.kept[k]);
      if (run(rest)) {
        out.kept = std::move(rest);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= out.kept.size()) break;
      n = std::min(n * 2, out.kept.size());
    }
  }
  out.stopped_at_limit = out.runs >= max_runs;
  return out;
}

}  // namespace bspcheck::trace
