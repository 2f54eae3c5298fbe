#include "checker/hp_source_races.hpp"

#include <algorithm>
#include <cstdint>

namespace bspcheck::checker {

std::vector<std::size_t> hp_sources_written(std::span<const HpRecord> hp) {
  std::vector<std::size_t> writer(hp.size(), kNoWriter);
  struct Dst {
    std::uintptr_t lo, hi;
    std::size_t op;
  };
  std::vector<Dst> dsts;
  dsts.reserve(hp.size());
  for (std::size_t i = 0; i < hp.size(); ++i)
    if (hp[i].nbytes) {
      const auto lo = reinterpret_cast<std::uintptr_t>(hp[i].dst);
      dsts.push_back({lo, lo + hp[i].nbytes, i});
    }
  if (dsts.empty()) return writer;
  std::sort(dsts.begin(), dsts.end(), [](const Dst& a, const Dst& b) { return a.lo < b.lo; });
  // reach[k]: the highest end among dsts[0..k], so that a search backwards from the last
  // destination starting before a source's end stops as soon as none before can reach it.
  std::vector<std::uintptr_t> reach(dsts.size());
  for (std::size_t k = 0; k < dsts.size(); ++k) reach[k] = std::max(dsts[k].hi, k ? reach[k - 1] : 0);
  for (std::size_t i = 0; i < hp.size(); ++i) {
    if (!hp[i].nbytes) continue;
    const auto lo = reinterpret_cast<std::uintptr_t>(hp[i].src), hi = lo + hp[i].nbytes;
    auto k = static_cast<std::size_t>(
        std::lower_bound(dsts.begin(), dsts.end(), hi, [](const Dst& d, std::uintptr_t v) { return d.lo < v; }) -
        dsts.begin());
    while (k-- > 0 && reach[k] > lo) {
      if (dsts[k].hi > lo && dsts[k].op != i) {
        writer[i] = dsts[k].op;
        break;
      }
    }
  }
  return writer;
}

}  // namespace bspcheck::checker
