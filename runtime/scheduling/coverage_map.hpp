// coverage_map.hpp: the coverage a run or a session reached, as a set of (superstep, choice
// kind, outcome class) tuples (bspcheck::CoverageTuple; docs/exploration.md, "Coverage"). It is
// the notion of behaviour `explore --strategy coverage` steers by (replay/coverage_search.hpp),
// and what every run reports whatever its strategy (runtime/scheduling/coverage_scheduler.hpp counts it),
// so that `run -v`, the reports and `stats` can show coverage growing.
//
// Counted: the choices that decide data (message order, write order, hp timing, processes
// granted) among two or more options. Not counted: which process runs next (BSPlib's processes
// see each other only at barriers, so interleaving changes hp timing and the order of output
// lines, both counted or compared elsewhere; explore does not explore it) and time jitter.
// Coarse on purpose, so that the set saturates: 12 tuples per superstep at most.
#pragma once

#include <cstdint>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/base/rng.hpp"

namespace bspcheck::rt {

// The class of a choice that took `value` of n options: 0 the default (n - 1: a Fisher-Yates
// step that leaves the element where it is, so queues keep their issue order and the last
// writer wins; hp "not yet"; every process granted), 1 the first option, 2 another.
constexpr int outcome_class(std::uint32_t n, std::uint32_t value) { return value + 1 == n ? 0 : value == 0 ? 1 : 2; }

class CoverageMap {
 public:
  // Supersteps from this one on count as this one: a run of a million supersteps reports at
  // most 12 * 4097 tuples.
  static constexpr std::uint64_t kLastSuperstep = 4096;

  // Does a choice of this kind among n options count?
  static constexpr bool counts(unsigned kind, std::uint32_t n) {
    return n >= 2 &&
           (kind == static_cast<unsigned>(ChoiceKind::queue_order) ||
            kind == static_cast<unsigned>(ChoiceKind::write_order) ||
            kind == static_cast<unsigned>(ChoiceKind::hp_timing) || kind == static_cast<unsigned>(ChoiceKind::grant));
  }

  // Adds the tuple of a choice (if it counts); true when it was not in the set before.
  bool add(std::uint64_t superstep, unsigned kind, std::uint32_t n, std::uint32_t value) {
    if (!counts(kind, n)) return false;
    return add_tuple(superstep, kind, outcome_class(n, value));
  }
  bool add(const CoverageTuple& t);  // false for a tuple of another kind or outcome (a foreign report)
  bool contains(const CoverageTuple& t) const;

  std::size_t size() const { return size_; }
  std::vector<CoverageTuple> tuples() const;  // sorted

 private:
  static int slot(unsigned kind);  // 0..3 for the kinds that count
  bool add_tuple(std::uint64_t superstep, unsigned kind, int outcome);
  std::vector<std::uint16_t> masks_;  // per superstep: bit 3 * slot + outcome
  std::size_t size_ = 0;
};

}  // namespace bspcheck::rt
