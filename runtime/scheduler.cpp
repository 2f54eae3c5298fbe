#include "runtime/scheduler.hpp"

namespace bspcheck::rt {

namespace {

// Streams per kind of choice; process choice is the only thing strategies differ in today.
class SeededChoices {
 public:
  explicit SeededChoices(std::uint64_t seed)
      : queue_(stream_for(seed, ChoiceKind::queue_order)),
        writes_(stream_for(seed, ChoiceKind::write_order)),
        hp_(stream_for(seed, ChoiceKind::hp_timing)),
        time_(stream_for(seed, ChoiceKind::time)) {}
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) {
    switch (kind) {
      case ChoiceKind::queue_order: return queue_.below(n);
      case ChoiceKind::write_order: return writes_.below(n);
      case ChoiceKind::hp_timing: return hp_.below(n);
      default: return time_.below(n);
    }
  }

 private:
  Rng queue_, writes_, hp_, time_;
};

class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(std::uint64_t seed)
      : procs_(stream_for(seed, ChoiceKind::next_process)), choices_(seed) {
    uniform_process_stream_ = &procs_;
  }
  int next_process(const RunnableSet& runnable, int) override {
    return runnable.list[procs_.below(static_cast<std::uint32_t>(runnable.list.size()))];
  }
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override { return choices_.choose(kind, n); }

 private:
  Rng procs_;
  SeededChoices choices_;
};

// Hands the processor to the next pid in cyclic order at every call. Other choices stay seeded.
class RoundRobinScheduler final : public Scheduler {
 public:
  explicit RoundRobinScheduler(std::uint64_t seed) : choices_(seed) {}
  int next_process(const RunnableSet& runnable, int current) override {
    const int p = runnable.nprocs();
    for (int k = 1; k <= p; ++k) {
      const int pid = (current + k) % p;
      if (runnable.contains(pid)) return pid;
    }
    return runnable.list.front();
  }
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override { return choices_.choose(kind, n); }

 private:
  SeededChoices choices_;
};

}  // namespace

std::unique_ptr<Scheduler> make_scheduler(Strategy strategy, std::uint64_t seed) {
  if (strategy == Strategy::round_robin) return std::make_unique<RoundRobinScheduler>(seed);
  return std::make_unique<RandomScheduler>(seed);
}

}  // namespace bspcheck::rt
