#include "replay/replay_scheduler.hpp"
#include "runtime/rng.hpp"

#include <sstream>

namespace bspcheck::trace {

std::string ReplayScheduler::describe(const Event& e) const {
  switch (e.type) {
    case Event::choice: return std::string("a ") + rt::choice_event_text(e.kind) + " (" + std::to_string(e.value) + ")";
    case Event::call: return describe_call(e.rec);
    case Event::superstep: return "the end of superstep " + std::to_string(e.value);
    default: return "the end of the run";
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
    if (trace_.complete()) diverged_(std::string("the program goes on (") + expecting + ") after the recorded run ended");
    if (!noted_end_) {
      noted_end_ = true;
      note_("the trace ends here (it was cut off, by a crash for example); the run goes on with choices drawn "
            "from the seed");
    }
    return nullptr;  // a trace cut off by a crash: the rest is free
  }
}

int ReplayScheduler::next_process(const rt::RunnableSet& runnable, int current) {
  const Event* e = next("a scheduling decision");
  if (!e) return after_end_->next_process(runnable, current);
  if (e->type != Event::choice || e->kind != static_cast<std::uint8_t>(rt::ChoiceKind::next_process))
    diverged_("the program asks for a next-process choice where the trace has " + describe(*e));
  const auto pid = static_cast<int>(e->value);
  if (pid < 0 || pid >= runnable.nprocs() || !runnable.contains(pid))
    diverged_("the trace chooses process " + std::to_string(pid) + " to run next, which is not runnable now");
  return pid;
}

std::uint32_t ReplayScheduler::choose(rt::ChoiceKind kind, std::uint32_t n) {
  const Event* e = next(rt::choice_event_text(static_cast<std::uint8_t>(kind)));
  if (!e) return after_end_->choose(kind, n);
  if (e->type != Event::choice || e->kind != static_cast<std::uint8_t>(kind))
    diverged_(std::string("the program asks for a ") + rt::choice_event_text(static_cast<std::uint8_t>(kind)) +
              " where the trace has " + describe(*e));
  if (e->value >= n)
    diverged_(std::string("the trace's ") + rt::choice_event_text(e->kind) + " " + std::to_string(e->value) + " is out of range 0.." +
              std::to_string(n - 1));
  return static_cast<std::uint32_t>(e->value);
}

void ReplayScheduler::call(const CallRecord& actual) {
  const Event* e = next("a BSPlib call");
  if (!e) return;
  if (e->type != Event::call || !(e->rec == actual))
    diverged_("the program makes " + describe_call(actual) + " where the trace has " + describe(*e));
}

void ReplayScheduler::superstep(std::uint64_t n) {
  const Event* e = next("the end of a superstep");
  if (!e) return;
  if (e->type != Event::superstep || e->value != n)
    diverged_("superstep " + std::to_string(n) + " ends where the trace has " + describe(*e));
}

}  // namespace bspcheck::trace
