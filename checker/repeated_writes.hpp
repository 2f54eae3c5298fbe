// repeated_writes.hpp: whether a superstep's writes (buffered and unbuffered) overlap, decided
// before check_writes orders them by address where it can be. The last superstep found disjoint
// is kept (checker/kept_superstep.hpp): one whose every process wrote the same ranges in the same
// order is disjoint too. A small superstep that differs compares every pair instead of being
// ordered. Both had been most of what the checks cost kernels: the pairs of an all-to-all's 16
// puts, the ordering of a ring's 64 hpputs, at every barrier.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "checker/checker.hpp"
#include "checker/kept_superstep.hpp"

namespace bspcheck::checker {

class RepeatedWrites {
 public:
  // At most this many writes are compared pair by pair at once, before the kept superstep is
  // asked (their pairs cost less than the match); at most kPairwise are when it does not match.
  static constexpr std::size_t kFewPairs = 8;
  static constexpr std::size_t kPairwise = 16;
  static constexpr std::size_t kKept = 1024;  // at most this many writes are kept

  // Whether no two of the superstep's writes (none of 0 bytes counted) overlap, shown without
  // ordering them. False says only "not shown": check_writes then orders them, and calls
  // ordered_disjoint() when they are.
  bool disjoint(const WriteSet& writes, std::span<const HpRecord> hp);
  // The writes last given to disjoint() were found disjoint by ordering them: keep them.
  void ordered_disjoint();

 private:
  struct Range {
    std::uintptr_t lo, hi;
    int writer;
    int process() const { return writer; }
    bool operator==(const Range& o) const { return lo == o.lo && hi == o.hi; }  // the writer is matched by group
  };
  bool no_two_overlap() const;

  std::array<Range, kKept> now_;  // the superstep being decided
  std::size_t n_ = 0;             // past kKept: too many to keep
  KeptSuperstep<Range, kKept> kept_;
};

}  // namespace bspcheck::checker
