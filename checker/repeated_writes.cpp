#include "checker/repeated_writes.hpp"

namespace bspcheck::checker {

bool RepeatedWrites::disjoint(const WriteSet& writes, std::span<const HpRecord> hp) {
  n_ = 0;
  if (writes.size() + hp.size() > kKept) {
    n_ = kKept + 1;
    return false;
  }
  const auto add = [this](const void* dst, std::uint32_t nbytes, int writer) {
    if (!nbytes) return;
    const auto lo = reinterpret_cast<std::uintptr_t>(dst);
    now_[n_++] = {lo, lo + nbytes, writer};
  };
  for (std::size_t i = 0; i < writes.size(); ++i) add(writes[i].dst, writes[i].nbytes, writes[i].writer);
  for (const HpRecord& h : hp) add(h.dst, h.nbytes, h.caller);
  if (n_ <= kFewPairs) return no_two_overlap();
  const std::span<const Range> now(now_.data(), n_);
  if (kept_.same(now)) return true;
  if (n_ > kPairwise || !no_two_overlap()) return false;
  kept_.keep(now);
  return true;
}

void RepeatedWrites::ordered_disjoint() {
  if (n_ <= kKept) kept_.keep(std::span<const Range>(now_.data(), n_));
}

bool RepeatedWrites::no_two_overlap() const {
  // Without branches: the writes come in the schedule's order, so which comparisons hold changes
  // from one superstep to the next, and mispredicted branches had cost more than the comparisons.
  bool overlap = false;
  for (std::size_t a = 1; a < n_; ++a)
    for (std::size_t b = 0; b < a; ++b) overlap |= (now_[a].lo < now_[b].hi) & (now_[b].lo < now_[a].hi);
  return !overlap;
}

}  // namespace bspcheck::checker
