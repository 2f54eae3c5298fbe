#include "runtime/scheduling/coverage_map.hpp"

#include <algorithm>

namespace bspcheck::rt {

namespace {
constexpr unsigned kKinds[] = {static_cast<unsigned>(ChoiceKind::queue_order),
                               static_cast<unsigned>(ChoiceKind::write_order),
                               static_cast<unsigned>(ChoiceKind::hp_timing), static_cast<unsigned>(ChoiceKind::grant)};
}  // namespace

int CoverageMap::slot(unsigned kind) {
  for (int i = 0; i < 4; ++i)
    if (kKinds[i] == kind) return i;
  return -1;
}

bool CoverageMap::add_tuple(std::uint64_t superstep, unsigned kind, int outcome) {
  const int s = slot(kind);
  if (s < 0 || outcome < 0 || outcome > 2) return false;
  const std::size_t step = static_cast<std::size_t>(std::min(superstep, kLastSuperstep));
  if (step >= masks_.size()) masks_.resize(step + 1, 0);
  const auto bit = static_cast<std::uint16_t>(1u << (3 * s + outcome));
  if (masks_[step] & bit) return false;
  masks_[step] = static_cast<std::uint16_t>(masks_[step] | bit);
  ++size_;
  return true;
}

bool CoverageMap::add(const CoverageTuple& t) {
  if (t.superstep < 0) return false;
  return add_tuple(static_cast<std::uint64_t>(t.superstep), static_cast<unsigned>(t.kind), t.outcome);
}

bool CoverageMap::contains(const CoverageTuple& t) const {
  const int s = t.kind >= 0 ? slot(static_cast<unsigned>(t.kind)) : -1;
  if (s < 0 || t.superstep < 0 || t.outcome < 0 || t.outcome > 2) return false;
  const std::size_t step = static_cast<std::size_t>(std::min(static_cast<std::uint64_t>(t.superstep), kLastSuperstep));
  return step < masks_.size() && (masks_[step] >> (3 * s + t.outcome) & 1u);
}

std::vector<CoverageTuple> CoverageMap::tuples() const {
  std::vector<CoverageTuple> out;
  out.reserve(size_);
  for (std::size_t step = 0; step < masks_.size(); ++step)
    for (int s = 0; s < 4; ++s)
      for (int outcome = 0; outcome < 3; ++outcome)
        if (masks_[step] >> (3 * s + outcome) & 1u)
          out.push_back(CoverageTuple{static_cast<int>(step), static_cast<int>(kKinds[s]), outcome});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace bspcheck::rt
