#include "checker/hp_source_races.hpp"

#include <algorithm>
#include <cstdint>

namespace bspcheck::checker {

namespace {

// The destinations of a superstep's operations, filed by 64-byte granule in an open-addressed
// table: whether a source overlaps another operation's destination is then a few probes, where
// sorting the destinations and searching them per source had been a fifth of the checks' cost on
// a ring of 64-byte hpputs. Ranges that span many granules make it refuse (usable() false).
class DestinationGranules {
 public:
  explicit DestinationGranules(std::span<const HpRecord> hp) {
    std::size_t entries = 0;
    for (const HpRecord& op : hp)
      if (op.nbytes) entries += granules(reinterpret_cast<std::uintptr_t>(op.dst), op.nbytes);
    if (entries > kMaxPerOperation * hp.size()) return;
    std::size_t size = 16;
    while (size < 2 * entries) size *= 2;
    slots_.assign(size, Slot{0, kEmpty});
    mask_ = size - 1;
    for (std::size_t i = 0; i < hp.size(); ++i) {
      if (!hp[i].nbytes) continue;
      const auto lo = reinterpret_cast<std::uintptr_t>(hp[i].dst);
      for (std::uintptr_t g = lo >> kShift, last = (lo + hp[i].nbytes - 1) >> kShift; g <= last; ++g)
        insert(g, static_cast<std::uint32_t>(i));
    }
  }
  bool usable() const { return !slots_.empty(); }
  // Whether [lo, lo + n) overlaps the destination of an operation other than self (exactly, not
  // by granule).
  bool overlaps_other(std::span<const HpRecord> hp, std::uintptr_t lo, std::uint32_t n, std::size_t self) const {
    const std::uintptr_t hi = lo + n;
    for (std::uintptr_t g = lo >> kShift, last = (hi - 1) >> kShift; g <= last; ++g)
      for (std::size_t s = slot_of(g); slots_[s].op != kEmpty; s = (s + 1) & mask_) {
        if (slots_[s].granule != g || slots_[s].op == self) continue;
        const HpRecord& w = hp[slots_[s].op];
        const auto wlo = reinterpret_cast<std::uintptr_t>(w.dst);
        if (wlo < hi && lo < wlo + w.nbytes) return true;
      }
    return false;
  }

 private:
  static constexpr unsigned kShift = 6;
  static constexpr std::size_t kMaxPerOperation = 8;  // granules per operation on average
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    std::uintptr_t granule;
    std::uint32_t op;
  };
  static std::size_t granules(std::uintptr_t lo, std::uint32_t n) {
    return ((lo + n - 1) >> kShift) - (lo >> kShift) + 1;
  }
  std::size_t slot_of(std::uintptr_t g) const {
    return static_cast<std::size_t>((g * 0x9e3779b97f4a7c15ULL) >> 32) & mask_;
  }
  void insert(std::uintptr_t g, std::uint32_t op) {
    std::size_t s = slot_of(g);
    while (slots_[s].op != kEmpty) s = (s + 1) & mask_;
    slots_[s] = {g, op};
  }
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

// The search for the operations in `which` (all when null): the destinations sorted by start, for
// each source the last destination starting before its end, and backwards from there.
void search(std::span<const HpRecord> hp, const std::vector<std::size_t>* which, std::vector<std::size_t>& writer) {
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
  if (dsts.empty()) return;
  std::sort(dsts.begin(), dsts.end(), [](const Dst& a, const Dst& b) { return a.lo < b.lo; });
  // reach[k]: the highest end among dsts[0..k], so that a search backwards from the last
  // destination starting before a source's end stops as soon as none before can reach it.
  std::vector<std::uintptr_t> reach(dsts.size());
  for (std::size_t k = 0; k < dsts.size(); ++k) reach[k] = std::max(dsts[k].hi, k ? reach[k - 1] : 0);
  const auto find = [&](std::size_t i) {
    const auto lo = reinterpret_cast<std::uintptr_t>(hp[i].src), hi = lo + hp[i].nbytes;
    auto k = static_cast<std::size_t>(
        std::lower_bound(dsts.begin(), dsts.end(), hi, [](const Dst& d, std::uintptr_t v) { return d.lo < v; }) -
        dsts.begin());
    while (k-- > 0 && reach[k] > lo) {
      if (dsts[k].hi > lo && dsts[k].op != i) {
        writer[i] = dsts[k].op;
        return;
      }
    }
  };
  if (which) {
    for (const std::size_t i : *which) find(i);
  } else {
    for (std::size_t i = 0; i < hp.size(); ++i)
      if (hp[i].nbytes) find(i);
  }
}

}  // namespace

std::vector<std::size_t> hp_sources_written(std::span<const HpRecord> hp) {
  std::vector<std::size_t> writer(hp.size(), kNoWriter);
  if (hp.size() < 2) return writer;  // an operation's own destination is no race
  const DestinationGranules granules(hp);
  if (!granules.usable()) {
    search(hp, nullptr, writer);
    return writer;
  }
  // Only the sources that do overlap another destination are searched (the same search, so the
  // same writer is named); the rest have none.
  std::vector<std::size_t> overlapping;
  for (std::size_t i = 0; i < hp.size(); ++i)
    if (hp[i].nbytes && granules.overlaps_other(hp, reinterpret_cast<std::uintptr_t>(hp[i].src), hp[i].nbytes, i))
      overlapping.push_back(i);
  if (!overlapping.empty()) search(hp, &overlapping, writer);
  return writer;
}

std::span<const std::size_t> HpSourceRaces::writers(std::span<const HpRecord> hp) {
  now_.clear();
  if (hp.size() >= 2 && hp.size() <= kKept) {
    for (const HpRecord& op : hp) now_.push_back({op.src, op.dst, op.nbytes, op.caller});
    if (none_written_.same(now_)) {
      writers_.assign(hp.size(), kNoWriter);
      return writers_;
    }
  }
  writers_ = hp_sources_written(hp);
  if (!now_.empty() && std::all_of(writers_.begin(), writers_.end(), [](std::size_t w) { return w == kNoWriter; }))
    none_written_.keep(now_);
  return writers_;
}

}  // namespace bspcheck::checker
