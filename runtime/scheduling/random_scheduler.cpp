#include "runtime/scheduling/random_scheduler.hpp"

namespace bspcheck::rt {

RandomScheduler::RandomScheduler(std::uint64_t seed)
    : procs_(stream_for(seed, ChoiceKind::next_process)), choices_(seed) {
  uniform_process_stream_ = &procs_;  // pick_next draws from procs_ inline, exactly as below
}

int RandomScheduler::next_process(const RunnableSet& runnable, int) {
  return runnable.list[procs_.below(static_cast<std::uint32_t>(runnable.list.size()))];
}

}  // namespace bspcheck::rt
