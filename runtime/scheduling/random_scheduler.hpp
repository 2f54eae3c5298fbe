// random_scheduler.hpp: the default strategy. Every choice is uniform; the next process is one
// uniform draw, which Scheduler::pick_next makes inline (no virtual call at every BSPlib call).
#pragma once

#include "runtime/scheduling/scheduler.hpp"
#include "runtime/scheduling/seeded_choices.hpp"

namespace bspcheck::rt {

class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(std::uint64_t seed);
  int next_process(const RunnableSet& runnable, int current) override;
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override { return choices_.choose(kind, n); }
  void choose_shuffle(ChoiceKind kind, std::uint32_t n, std::uint32_t* out) override {
    choices_.choose_shuffle(kind, n, out);
  }

 private:
  Rng procs_;
  SeededChoices choices_;
};

}  // namespace bspcheck::rt
