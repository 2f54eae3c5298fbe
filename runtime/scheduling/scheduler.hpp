// scheduler.hpp: every choice the runtime makes goes through one Scheduler. Strategies differ
// only in how they choose; all of them draw from streams derived from the run's seed, so a run
// is reproducible from (strategy, seed). Wrappers (recording, replaying; replay/) own the
// scheduler they wrap by unique_ptr.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "runtime/base/huge_page_allocator.hpp"
#include "runtime/base/rng.hpp"

namespace bspcheck::rt {

// The processes that may run next: an unordered list plus each pid's position in it (-1: not
// runnable), so that both "pick the i-th" and "is pid runnable" are O(1).
struct RunnableSet {
  const PerProcess<int>& list;
  const PerProcess<int>& position;
  bool contains(int pid) const { return position[static_cast<std::size_t>(pid)] >= 0; }
  int nprocs() const { return static_cast<int>(position.size()); }
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Which of the runnable processes runs next; `current` is the one asking (it may be chosen
  // again if it is runnable).
  virtual int next_process(const RunnableSet& runnable, int current) = 0;

  // next_process without a virtual call for the default strategy, whose choice is one uniform
  // draw: it is made at every BSPlib call, so it is worth inlining.
  int pick_next(const RunnableSet& runnable, int current) {
    if (uniform_process_stream_)
      return runnable.list[uniform_process_stream_->below(static_cast<std::uint32_t>(runnable.list.size()))];
    if (process_delegate_) return process_delegate_->pick_next(runnable, current);
    return next_process(runnable, current);
  }
  // A uniformly chosen index below n for the given kind of choice (queue order, write order,
  // hp timing, time jitter).
  virtual std::uint32_t choose(ChoiceKind kind, std::uint32_t n) = 0;

  // Exploring (bsp-check explore): the runtime offers only the choices that can change what the
  // program sees: no shuffle of identical messages or of writes that do not overlap with
  // different data, no process interleaving (it changes nothing but hp timing and output order),
  // no time jitter.
  virtual bool exploring() const { return false; }

  // The draws of a Fisher-Yates shuffle of n elements, in order: out[k] = choose(kind, n - k) for
  // k = 0 .. n-2. One virtual call per shuffle through each wrapper (coverage, recorder), not one
  // per element: a barrier shuffles the writes of every put. A scheduler that overrides it draws
  // exactly what those choose calls would, in the same order, so seeds and traces are unchanged.
  virtual void choose_shuffle(ChoiceKind kind, std::uint32_t n, std::uint32_t* out) {
    for (std::uint32_t i = n; i > 1; --i) *out++ = choose(kind, i);
  }

  // Fisher-Yates shuffle drawing from choose(kind, ...) (through choose_shuffle).
  template <typename T>
  void shuffle(std::vector<T>& v, ChoiceKind kind) {
    if (v.size() < 2) return;
    const auto n = static_cast<std::uint32_t>(v.size());
    if (shuffle_draws_.size() < n) shuffle_draws_.resize(n);
    choose_shuffle(kind, n, shuffle_draws_.data());
    for (std::uint32_t i = n, k = 0; i > 1; --i, ++k) {
      const std::uint32_t j = shuffle_draws_[k];
      if (j != i - 1) std::swap(v[i - 1], v[j]);
    }
  }

 protected:
  // Set by a strategy whose next_process is runnable.list[stream.below(size)], and only then.
  Rng* uniform_process_stream_ = nullptr;
  // For a wrapper that forwards next_process unchanged: the inner strategy's fast path is its,
  // and pick_next asks the inner one directly (no virtual call through the wrapper).
  void share_fast_path(Scheduler& inner) {
    uniform_process_stream_ = inner.uniform_process_stream_;
    process_delegate_ = &inner;
  }

 private:
  Scheduler* process_delegate_ = nullptr;
  std::vector<std::uint32_t> shuffle_draws_;  // shuffle()'s, kept between barriers
};

// The strategy options.strategy names, seeded with options.seed (runtime/scheduling/).
std::unique_ptr<Scheduler> make_scheduler(const Options& options);
// A strategy's name (BSPCHECK_OPTIONS, --strategy, trace headers): bspcheck::strategy_name,
// runtime/options/reproduce.cpp.

}  // namespace bspcheck::rt
