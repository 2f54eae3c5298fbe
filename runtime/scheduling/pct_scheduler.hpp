// pct_scheduler.hpp: probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010) adapted
// to BSP. A bug of small depth needs a few specific decisions while everything else happens in
// some ordinary way; uniform random search pays a factor for every decision of the run, PCT
// only for the few that matter.
//
// The run's decisions form one sequence of steps: a choice of the next process among two or
// more runnable ones, and a queue-order, write-order or hp-timing choice among two or more
// options. (Time jitter is drawn from its own stream and is not a step: it changes no data.)
//   - Every process gets a random priority; the highest-priority runnable process runs.
//   - Every other choice takes its default, n - 1: a Fisher-Yates step leaves the element where
//     it is (queues and writes keep their issue order) and hp timing says "not yet".
//   - depth - 1 distinct change points are placed uniformly among steps 1..k (k = steps_estimate).
//     At a change point a process choice first demotes the process it would pick below every
//     other (PCT's priority change); any other choice takes a uniform non-default value.
// docs/exploration.md states the probability bound this gives.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::rt {

class PctScheduler final : public Scheduler {
 public:
  PctScheduler(std::uint64_t seed, int depth, std::uint64_t steps_estimate);
  int next_process(const RunnableSet& runnable, int current) override;
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override;

  // The change points drawn for this run, ascending (for tests and for the docs' bound).
  const std::vector<std::uint64_t>& change_points() const { return change_points_; }

 private:
  // Advances the step counter; true if the new step is a change point.
  bool step_is_change_point();
  void draw_priorities(int nprocs);

  Rng priorities_stream_;               // initial priorities
  Rng deviations_;                      // values taken at change points
  Rng time_;                            // time jitter, uniform as in every other strategy
  std::vector<std::int64_t> priority_;  // higher runs first; demoted processes go negative
  std::int64_t next_demoted_ = -1;      // each demotion goes below every earlier one
  std::vector<std::uint64_t> change_points_;
  std::size_t next_change_ = 0;  // index into change_points_
  std::uint64_t steps_ = 0;
};

}  // namespace bspcheck::rt
