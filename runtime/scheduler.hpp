// scheduler.hpp: every choice the runtime makes goes through one Scheduler. Strategies differ
// only in how they choose; all of them draw from streams derived from the run's seed, so a run
// is reproducible from (strategy, seed). A replaying scheduler will plug in here too.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/rng.hpp"

namespace bspcheck::rt {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Which of the runnable processes runs next; `current` is the one asking (it may be chosen
  // again, and it is in the list if it is runnable).
  virtual int next_process(const std::vector<int>& runnable, int current) = 0;
  // A uniformly chosen index below n for the given kind of choice (queue order, write order,
  // hp timing, time jitter).
  virtual std::uint32_t choose(ChoiceKind kind, std::uint32_t n) = 0;

  // Fisher-Yates shuffle drawing from choose(kind, ...).
  template <typename T>
  void shuffle(std::vector<T>& v, ChoiceKind kind) {
    for (std::size_t i = v.size(); i > 1; --i) {
      std::size_t j = choose(kind, static_cast<std::uint32_t>(i));
      if (j != i - 1) std::swap(v[i - 1], v[j]);
    }
  }
};

std::unique_ptr<Scheduler> make_scheduler(Strategy strategy, std::uint64_t seed);

}  // namespace bspcheck::rt
