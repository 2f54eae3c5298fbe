// round_robin_scheduler.hpp: hands the processor to the next pid in cyclic order at every call,
// the most "fair" interleaving and the one a naive threaded port would see. Other choices stay
// seeded and uniform.
#pragma once

#include "runtime/scheduling/scheduler.hpp"
#include "runtime/scheduling/seeded_choices.hpp"

namespace bspcheck::rt {

class RoundRobinScheduler final : public Scheduler {
 public:
  explicit RoundRobinScheduler(std::uint64_t seed) : choices_(seed) {}
  int next_process(const RunnableSet& runnable, int current) override;
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override { return choices_.choose(kind, n); }
  void choose_shuffle(ChoiceKind kind, std::uint32_t n, std::uint32_t* out) override {
    choices_.choose_shuffle(kind, n, out);
  }

 private:
  SeededChoices choices_;
};

}  // namespace bspcheck::rt
