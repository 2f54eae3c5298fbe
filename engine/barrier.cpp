#include "engine/barrier.hpp"

namespace bspcheck::rt {

void Barrier::exchange(int superstep, const std::function<void(std::size_t)>& fire) {
  // (1) unbuffered operations: checked, then the pending ones take effect in a seeded order;
  if (checker_) checker_->check_hp_at_barrier(hp_.log(), superstep);
  while (hp_.any_pending()) fire(sched_.choose(ChoiceKind::hp_timing, static_cast<std::uint32_t>(hp_.pending())));
  // (2) the sources of all gets are read, and the checker sees every write;
  drma_.read_get_sources();
  if (checker_) checker_->check_writes(drma_.writes(), hp_.log(), superstep);
  hp_.clear();
  // (3) then the destinations are written, get data before put data.
  drma_.land(sched_);
}

}  // namespace bspcheck::rt
