// writes_by_address.hpp: a superstep's writes (buffered and unbuffered) in address order, for the
// put-collision and hp-dst-conflict checks (Checker::check_writes). The buffers are kept from one
// barrier to the next: a superstep of a million writes had taken fresh pages for its 24 MB of
// intervals, and for every merge of two runs again, at every barrier.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "checker/checker.hpp"

namespace bspcheck::checker {

// One write landing at this barrier, as check_writes sorts them: 24 bytes, so that sorting a
// superstep's million writes moves little memory. Write counts and sizes fit in 32 bits: every
// write is a BSPlib call with an int size. The bytes of a write of at most 8 travel with it, read
// while the writes are walked in call order (their payloads then lie in ascending order):
// comparing them in address order would otherwise read a record and a payload at random per write
// (half of a checked run of overlapping puts).
inline constexpr std::uint32_t kHpBit = 0x80000000u;
inline constexpr std::uint32_t kSmall = sizeof(std::uint64_t);
struct Interval {
  std::uintptr_t lo;
  std::uint32_t nbytes;
  std::uint32_t tagged;  // index into writes, or into hp with kHpBit set
  // A buffered write of at most kSmall bytes: its bytes (zero-padded); a larger one: its first
  // kSmall bytes, so that two writes at one address whose first bytes differ are told apart
  // without reading their payloads at random; 0 for an hp operation.
  std::uint64_t small;
  std::uintptr_t hi() const { return lo + nbytes; }
  bool is_hp() const { return (tagged & kHpBit) != 0; }
  bool carries_bytes() const { return !is_hp() && nbytes <= kSmall; }
  std::size_t index() const { return tagged & ~kHpBit; }
};

// The bytes of a buffered write from lo (the payload, or the copy an Interval carries).
inline const std::byte* bytes_from(const WriteSet& writes, const Interval& x, std::uintptr_t lo) {
  return x.carries_bytes() ? reinterpret_cast<const std::byte*>(&x.small) + (lo - x.lo)
                           : writes.bytes(writes[x.index()]) + (lo - x.lo);
}

class WritesByAddress {
 public:
  // Every write of the superstep (none of 0 bytes) in address order: a total order, the index
  // last, so that the order and so the findings do not depend on how it is reached. Empty when
  // fewer than two. Valid until the next call.
  std::span<const Interval> order(const WriteSet& writes, std::span<const HpRecord> hp);

 private:
  // Places the intervals grouped by writer, or counted per first address (counted_; see the
  // .cpp); returns their number.
  std::size_t place(const WriteSet& writes, std::span<const HpRecord> hp);
  // Sorts iv_[0, n) by merging its ascending runs, or by std::sort when there are many; the
  // result is in iv_ (the buffers may have been swapped).
  void sort_by_runs(std::size_t n);
  // Sorts iv_[0, n) by the counts place() took of the writes at each first address from lo_min_,
  // then orders the few writes that share one; the result is in iv_.
  void sort_by_counting(std::size_t n);

  std::vector<Interval> iv_, spare_;  // grown, never shrunk: the next barrier reuses the pages
  std::vector<std::uint32_t> next_;   // per writer: its count, then where its next write goes
  std::vector<std::uint32_t> at_;     // per first address (from lo_min_): its count, then its next place
  std::vector<std::size_t> bounds_, merged_;
  std::uintptr_t lo_min_ = 0;
  bool counted_ = false;
};

}  // namespace bspcheck::checker
