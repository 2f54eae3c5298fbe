#include "replay/replay_scheduler.hpp"
#include "runtime/base/rng.hpp"

#include <algorithm>
#include <sstream>

namespace bspcheck::trace {

std::string ReplayScheduler::describe(const Event& e) const {
  switch (e.type) {
    case Event::choice:
      return std::string("a ") + rt::choice_event_text(e.kind) + " (" + std::to_string(e.value) + ")";
    case Event::call:
      return describe_call(e.rec);
    case Event::superstep:
      return "the end of superstep " + std::to_string(e.value);
    default:
      return "the end of the run";
  }
}

const Event* ReplayScheduler::next(const char* expecting) {
  if (!at_end_) {
    try {
      if (trace_.next(current_)) return &current_;
    } catch (const TraceError& e) {  // damage found on the way: the replay cannot go on
      diverged_(std::string("the trace cannot be read further: ") + e.what());
    }
    at_end_ = true;
  }
  {
    if (trace_.complete())
      diverged_(std::string("the program goes on (") + expecting + ") after the recorded run ended");
    if (!noted_end_) {
      noted_end_ = true;
      note_(
          "the trace ends here (it was cut off, by a crash for example); the run goes on with choices drawn "
          "from the seed");
    }
    return nullptr;  // a trace cut off by a crash: the rest is free
  }
}

int ReplayScheduler::mpi_next_process(const rt::RunnableSet& runnable, int current) const {
  // pid order in every superstep: when all can run, process 0; then each on until it blocks.
  if (static_cast<int>(runnable.list.size()) == runnable.nprocs()) return 0;
  if (runnable.contains(current)) return current;
  return *std::min_element(runnable.list.begin(), runnable.list.end());
}

int ReplayScheduler::next_process(const rt::RunnableSet& runnable, int current) {
  if (mpi_) return mpi_next_process(runnable, current);
  constexpr auto kind = static_cast<std::uint8_t>(rt::ChoiceKind::next_process);
  std::uint64_t small = 0;
  if (!at_end_ && trace_.next_small_choice(kind, small)) return checked_pid(small, runnable);  // the usual record
  const Event* e = next("a scheduling decision");
  if (!e) return after_end_->next_process(runnable, current);
  // The kind alone says it is a choice of that kind (it is 0 for other events). Testing the type
  // too let the compiler load both in one word, which stalled on the reader's separate stores.
  if (e->kind != kind) diverged_("the program asks for a next-process choice where the trace has " + describe(*e));
  return checked_pid(e->value, runnable);
}

void ReplayScheduler::not_runnable(std::uint64_t pid) {
  diverged_("the trace chooses process " + std::to_string(pid) + " to run next, which is not runnable now");
}

std::uint32_t ReplayScheduler::choose(rt::ChoiceKind kind, std::uint32_t n) {
  // The MPI run's own: hp operations at the barrier, writes in issue order, no jitter, every
  // process granted (the record's p).
  if (mpi_ && !mpi_from_trace(kind)) return n - 1;
  const auto k = static_cast<std::uint8_t>(kind);
  std::uint64_t small = 0;
  if (!at_end_ && trace_.next_small_choice(k, small)) return checked_choice(k, small, n);  // the usual record
  const Event* e = next(rt::choice_event_text(k));
  if (!e) return after_end_->choose(kind, n);
  if (e->kind != k)  // (as in next_process)
    diverged_(std::string("the program asks for a ") + rt::choice_event_text(k) + " where the trace has " +
              describe(*e));
  return checked_choice(k, e->value, n);
}

void ReplayScheduler::choose_shuffle(rt::ChoiceKind kind, std::uint32_t n, std::uint32_t* out) {
  if (mpi_ && !mpi_from_trace(kind)) {
    for (std::uint32_t i = n; i > 1; --i) *out++ = i - 1;
    return;
  }
  const auto k = static_cast<std::uint8_t>(kind);
  for (std::uint32_t i = n; i > 1;) {
    if (!at_end_) {  // the usual records, all at once
      const std::uint32_t read = trace_.next_small_shuffle(k, i, out);
      out += read;
      i -= read;
      if (i <= 1) break;
    }
    *out++ = ReplayScheduler::choose(kind, i--);  // any other record, the trace's end: as choose
  }
}

void ReplayScheduler::out_of_range(std::uint8_t kind, std::uint64_t value, std::uint32_t n) {
  diverged_(std::string("the trace's ") + rt::choice_event_text(kind) + " " + std::to_string(value) +
            " is out of range 0.." + std::to_string(n - 1));
}

void ReplayScheduler::call_not_next(const CallRecord& actual) {
  const Event* e = next("a BSPlib call");
  if (!e) return;
  if (e->type != Event::call || !(e->rec == actual))
    diverged_("the program makes " + describe_call(actual) + " where the trace has " + describe(*e));
}

void ReplayScheduler::superstep(std::uint64_t n) {
  ended_superstep_ = 0;
  const Event* e = next("the end of a superstep");
  if (!e) return;
  if (e->type != Event::superstep || e->value != n)
    diverged_("superstep " + std::to_string(n) + " ends where the trace has " + describe(*e));
}

}  // namespace bspcheck::trace
