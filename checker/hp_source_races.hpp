// hp_source_races.hpp: an unbuffered operation whose source another unbuffered operation of the
// same superstep writes (BSPlib 3.2, 3.3). Both may take effect at any moment until the sync, in
// no order, so whether the reader sees the old or the new bytes is timing: a race whatever order
// the calls were made in, and whichever landed first in the schedule that ran. The stamp check at
// the barrier (Checker::check_hp_at_barrier) sees it only when the write lands after the reader's
// call; this finds it from the superstep's log alone, on every schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "checker/checker.hpp"
#include "checker/kept_superstep.hpp"

namespace bspcheck::checker {

inline constexpr std::size_t kNoWriter = static_cast<std::size_t>(-1);

// For each operation of hp (a superstep's log, canonical addresses), the index of an operation
// other than itself whose destination overlaps its source, or kNoWriter.
std::vector<std::size_t> hp_sources_written(std::span<const HpRecord> hp);

// hp_sources_written for one barrier after another, the last superstep none of whose sources was
// written kept (checker/kept_superstep.hpp): a ring of hpputs that repeats its operations had
// filed every destination by granule again at every barrier, the largest part of what the checks
// cost it.
class HpSourceRaces {
 public:
  // hp_sources_written(hp); valid until the next call.
  std::span<const std::size_t> writers(std::span<const HpRecord> hp);

 private:
  static constexpr std::size_t kKept = 1024;  // at most this many operations are kept
  struct Operation {
    const void* src;
    const void* dst;
    std::uint32_t nbytes;
    int caller;
    int process() const { return caller; }
    bool operator==(const Operation& o) const { return src == o.src && dst == o.dst && nbytes == o.nbytes; }
  };
  std::vector<Operation> now_;
  std::vector<std::size_t> writers_;
  KeptSuperstep<Operation, kKept> none_written_;
};

}  // namespace bspcheck::checker
