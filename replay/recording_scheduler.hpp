// recording_scheduler.hpp: the scheduler that records. It asks the scheduler it wraps (the run's
// strategy, or a guide) for every choice and writes each answer to the trace, so that
// replay_scheduler.hpp can give the same answers again.
#pragma once

#include <memory>

#include "replay/trace_format.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::trace {

class RecordingScheduler final : public rt::Scheduler {
 public:
  RecordingScheduler(std::unique_ptr<rt::Scheduler> inner, Writer& out) : inner_(std::move(inner)), out_(out) {}
  int next_process(const rt::RunnableSet& runnable, int current) override {
    const int pid = inner_->pick_next(runnable, current);  // the strategy's inline draw, when it has one
    out_.choice(static_cast<std::uint8_t>(rt::ChoiceKind::next_process), static_cast<std::uint64_t>(pid));
    return pid;
  }
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override {
    const std::uint32_t v = inner_->choose(kind, n);
    out_.choice(static_cast<std::uint8_t>(kind), v);
    return v;
  }
  void choose_shuffle(rt::ChoiceKind kind, std::uint32_t n, std::uint32_t* out) override {
    inner_->choose_shuffle(kind, n, out);
    if (n > 1) out_.choices(static_cast<std::uint8_t>(kind), out, n - 1);
  }
  // The run offers what the wrapped scheduler explores, recorded or not: otherwise the recorded
  // run of a failing explored schedule would make other choices than the schedule it records.
  bool exploring() const override { return inner_->exploring(); }

 private:
  std::unique_ptr<rt::Scheduler> inner_;
  Writer& out_;
};

}  // namespace bspcheck::trace
