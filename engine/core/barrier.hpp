// barrier.hpp: what a BSPlib barrier does with the communication of the superstep (BSPlib 3.3,
// docs/semantics.md), in this order:
//   (1) the checker looks at what happened to the sources and destinations of the unbuffered
//       operations since their calls; then those still pending take effect, one after another,
//       in an order drawn from the scheduler (kind hp_timing);
//   (2) the sources of all gets are read, after every process has stopped computing, and the
//       checker sees every write about to land (collisions, hp destinations written);
//   (3) the destinations are written: all get data before any put data, each group in an order
//       drawn from the scheduler, so that where writes of a group overlap the seed picks the winner.
// World::barrier runs it, then applies registrations, the tag size and the messages; the World
// also wraps each hp operation's firing (poisoning, private globals), hence `fire`.
#pragma once

#include <cstddef>
#include <functional>

#include "checker/checker.hpp"
#include "engine/core/drma_buffer.hpp"
#include "engine/core/hp_operations.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::rt {

class Barrier {
 public:
  // checker: null when the run has no checker (Options::checks off).
  Barrier(HpOperations& hp, DrmaBuffer& drma, Scheduler& sched, checker::Checker* checker)
      : hp_(hp), drma_(drma), sched_(sched), checker_(checker) {}

  // Steps (1) to (3) at the end of `superstep`. fire(i) performs the i-th pending hp operation
  // (HpOperations::take and fire); afterwards no hp operation is pending or logged, and the
  // DRMA buffer is empty.
  void exchange(int superstep, const std::function<void(std::size_t pending_index)>& fire);

 private:
  HpOperations& hp_;
  DrmaBuffer& drma_;
  Scheduler& sched_;
  checker::Checker* checker_;
};

}  // namespace bspcheck::rt
