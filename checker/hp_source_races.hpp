// hp_source_races.hpp: an unbuffered operation whose source another unbuffered operation of the
// same superstep writes (BSPlib 3.2, 3.3). Both may take effect at any moment until the sync, in
// no order, so whether the reader sees the old or the new bytes is timing: a race whatever order
// the calls were made in, and whichever landed first in the schedule that ran. The stamp check at
// the barrier (Checker::check_hp_at_barrier) sees it only when the write lands after the reader's
// call; this finds it from the superstep's log alone, on every schedule.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "checker/checker.hpp"

namespace bspcheck::checker {

inline constexpr std::size_t kNoWriter = static_cast<std::size_t>(-1);

// For each operation of hp (a superstep's log, canonical addresses), the index of an operation
// other than itself whose destination overlaps its source, or kNoWriter.
std::vector<std::size_t> hp_sources_written(std::span<const HpRecord> hp);

}  // namespace bspcheck::checker
