#include "runtime/scheduling/round_robin_scheduler.hpp"

namespace bspcheck::rt {

int RoundRobinScheduler::next_process(const RunnableSet& runnable, int current) {
  const int p = runnable.nprocs();
  for (int k = 1; k <= p; ++k) {
    const int pid = (current + k) % p;
    if (runnable.contains(pid)) return pid;
  }
  return runnable.list.front();
}

}  // namespace bspcheck::rt
