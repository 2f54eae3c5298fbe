#include "engine/core/barrier.hpp"

#include <vector>

namespace bspcheck::rt {

void Barrier::exchange(int superstep, const std::function<void(std::size_t)>& fire) {
  // (1) unbuffered operations: checked, then the pending ones take effect in a seeded order;
  if (checker_) checker_->check_hp_at_barrier(hp_.log(), superstep);
  // The choices are drawn first, all of them (the same draws in the same order: nothing else is
  // drawn in between), so that the operations they pick can be fetched into the cache ahead of
  // their landing: a record 16 landings ahead, its source and destination 8 ahead. Each landing
  // had waited for a record and two ranges at random addresses (40% of a checked run of a
  // million hpputs).
  if (hp_.any_pending()) {
    std::vector<std::uint32_t> picks(hp_.pending());
    for (std::size_t k = 0; k < picks.size(); ++k)
      picks[k] = sched_.choose(ChoiceKind::hp_timing, static_cast<std::uint32_t>(picks.size() - k));
    const std::vector<std::size_t> order = hp_.taking_order(picks);
    for (std::size_t k = 0; k < picks.size(); ++k) {
      if (k + 16 < order.size()) hp_.prefetch_record(order[k + 16]);
      if (k + 8 < order.size()) hp_.prefetch_bytes(order[k + 8]);
      fire(picks[k]);
    }
  }
  // (2) the sources of all gets are read, and the checker sees every write;
  drma_.read_get_sources();
  if (checker_) checker_->check_writes(drma_.writes(), hp_.log(), superstep);
  hp_.clear();
  if (checker_) checker_->stamps().forget();  // every operation's stamps were compared
  // (3) then the destinations are written, get data before put data.
  drma_.land(sched_);
}

}  // namespace bspcheck::rt
