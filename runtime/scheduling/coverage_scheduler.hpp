// coverage_scheduler.hpp: the outermost scheduler of every run. It asks the scheduler it wraps
// (the strategy, a guide, a replay, the recorder) for every choice and adds the tuple of each
// to the run's coverage (runtime/scheduling/coverage_map.hpp), whatever the strategy: so that `run` can
// report coverage for random, round_robin and pct as explore does for its searches. It keeps
// the wrapped strategy's inline fast path for the next process (not a coverage choice).
#pragma once

#include <memory>

#include "runtime/scheduling/coverage_map.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::rt {

class CoverageScheduler final : public Scheduler {
 public:
  explicit CoverageScheduler(std::unique_ptr<Scheduler> inner) : inner_(std::move(inner)) { share_fast_path(*inner_); }
  int next_process(const RunnableSet& runnable, int current) override { return inner_->pick_next(runnable, current); }
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override {
    const std::uint32_t v = inner_->choose(kind, n);
    coverage_.add(superstep_, static_cast<unsigned>(kind), n, v);
    return v;
  }
  void choose_shuffle(ChoiceKind kind, std::uint32_t n, std::uint32_t* out) override {
    inner_->choose_shuffle(kind, n, out);
    for (std::uint32_t i = n; i > 1; --i) coverage_.add(superstep_, static_cast<unsigned>(kind), i, *out++);
  }
  bool exploring() const override { return inner_->exploring(); }

  void superstep(std::uint64_t n) { superstep_ = n; }
  const CoverageMap& coverage() const { return coverage_; }

 private:
  std::unique_ptr<Scheduler> inner_;
  std::uint64_t superstep_ = 0;
  CoverageMap coverage_;
};

}  // namespace bspcheck::rt
