// replay_scheduler.hpp: the scheduler that replays. It answers every choice from a recorded
// trace and checks that the program makes the same calls, reporting the first difference as
// replay-divergence. Past the end of a cut-off trace the scheduler it wraps answers.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "replay/trace_format.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::trace {

class ReplayScheduler final : public rt::Scheduler {
 public:
  // diverged(message) reports replay-divergence and stops the run; it does not return.
  // note(message) tells the user something worth knowing that is not a finding.
  ReplayScheduler(EventStream trace, std::unique_ptr<rt::Scheduler> after_end,
                  std::function<void(const std::string&)> diverged, std::function<void(const std::string&)> note)
      : trace_(std::move(trace)),
        after_end_(std::move(after_end)),
        diverged_(std::move(diverged)),
        note_(std::move(note)),
        mpi_(trace_.header().strategy == kMpiStrategy) {}

  int next_process(const rt::RunnableSet& runnable, int current) override;
  std::uint32_t choose(rt::ChoiceKind kind, std::uint32_t n) override;
  // A shuffle's draws read in one loop over the trace's records (choose, one at a time, would be
  // a virtual call per put of the superstep); the same answers, in the same order.
  void choose_shuffle(rt::ChoiceKind kind, std::uint32_t n, std::uint32_t* out) override;
  // The program made this call: it must be the trace's next record. Inline: every BSPlib call of
  // a replay passes here, and the trace nearly always has the same bytes next.
  void call(const CallRecord& actual) {
    if (mpi_) [[unlikely]]
      count_superstep_end(actual);
    if (!at_end_ && trace_.next_call_if(actual)) [[likely]]
      return;
    call_not_next(actual);
  }
  void superstep(std::uint64_t n);
  // A trace recorded by an exploring run is replayed exploring: offered the same choices.
  bool exploring() const override { return trace_.header().strategy == kExploringStrategy; }
  // Past the end of a trace that was cut off (a crash): choices come from the fallback.
  bool past_end() const { return at_end_; }
  const Header& header() const { return trace_.header(); }

 private:
  const Event* next(const char* expecting);
  // A trace merged from the MPI back end's rank records (rank_traces.hpp) holds the calls and the
  // barrier's outcomes only: the processes run in pid order (each on until it blocks), an
  // unbuffered operation waits for the barrier, writes land in issue order, and at the barrier
  // (once every process has made the call that ends the superstep) the hp timing and the queues'
  // order come from the trace.
  int mpi_next_process(const rt::RunnableSet& runnable, int current) const;
  bool mpi_from_trace(rt::ChoiceKind kind) const {
    return ended_superstep_ >= header().procs &&
           (kind == rt::ChoiceKind::hp_timing || kind == rt::ChoiceKind::queue_order);
  }
  void count_superstep_end(const CallRecord& actual) {
    if (actual.call == Call::sync || actual.call == Call::end) ++ended_superstep_;
  }
  // call() when the trace's next record is not that call as encoded: another record, a record
  // across two blocks, the end of a cut-off trace, or a divergence.
  void call_not_next(const CallRecord& actual);
  // A recorded choice, checked against what the run can take; diverged_ when it cannot. The
  // check is inline (every choice passes here), the report not.
  int checked_pid(std::uint64_t pid, const rt::RunnableSet& runnable) {
    if (pid >= static_cast<std::uint64_t>(runnable.nprocs()) || !runnable.contains(static_cast<int>(pid))) [[unlikely]]
      not_runnable(pid);
    return static_cast<int>(pid);
  }
  std::uint32_t checked_choice(std::uint8_t kind, std::uint64_t value, std::uint32_t n) {
    if (value >= n) [[unlikely]]
      out_of_range(kind, value, n);
    return static_cast<std::uint32_t>(value);
  }
  __attribute__((noinline, cold)) void not_runnable(std::uint64_t pid);
  __attribute__((noinline, cold)) void out_of_range(std::uint8_t kind, std::uint64_t value, std::uint32_t n);
  std::string describe(const Event& e) const;
  EventStream trace_;  // read as the run goes: bounded memory whatever the trace's length
  Event current_;
  bool at_end_ = false;
  std::unique_ptr<rt::Scheduler> after_end_;
  std::function<void(const std::string&)> diverged_;
  std::function<void(const std::string&)> note_;
  bool noted_end_ = false;
  const bool mpi_;
  std::uint32_t ended_superstep_ = 0;  // processes that made the call ending this superstep (mpi_)
};

}  // namespace bspcheck::trace
