// run_prefetch.hpp: `run -j N`: the session's next runs, started ahead on N worker threads while
// the session loop (tools/commands/run_session.cpp) takes their outcomes one by one in its own order. The loop
// is unchanged by it: it sees the same outcomes in the same order as when it runs them itself, so
// the output, the first failure, schedule-divergence, the summary and the reports are those of a
// sequential session, only sooner. Runs are deterministic, so running one early changes nothing.
//
// Each worker has fork servers of its own (tools/launch/fork_server_client.hpp); the runs it starts
// are at most `window` ahead of the one the loop is waiting for, which bounds the memory kept
// and the work wasted when the loop stops at a failure.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

class RunPrefetch {
 public:
  // The session's i-th run (p, seed), for i below count.
  using Plan = std::function<std::pair<int, std::uint64_t>(std::uint64_t i)>;
  // Runs (p, seed) on worker `worker`'s own servers; called on that worker's thread.
  using Runner = std::function<RunOutcome(std::size_t worker, int p, std::uint64_t seed)>;

  // The plan's runs from `first` (the loop runs those before it itself) to below `count`.
  RunPrefetch(std::size_t workers, std::uint64_t first, std::uint64_t count, Plan plan, Runner run, std::size_t window);
  ~RunPrefetch();  // starts nothing more and waits for the runs under way
  RunPrefetch(const RunPrefetch&) = delete;
  RunPrefetch& operator=(const RunPrefetch&) = delete;

  // The outcome of (p, seed) when it is the plan's next run, waiting for it to end; nothing when
  // it is not (the loop then runs it itself).
  std::optional<RunOutcome> take(int p, std::uint64_t seed);
  // No run starts from now on (an interrupt, or the loop stops).
  void stop();

 private:
  void work(std::size_t worker);

  std::uint64_t count_;
  Plan plan_;
  Runner run_;
  std::size_t window_;
  std::mutex m_;
  // Two conditions, each told only when its waiter has something to see: a wake-up that finds
  // nothing costs a context switch each way, a third of the driver's time per run of a small
  // program when every finished run woke every thread.
  std::condition_variable outcome_ready_;     // the loop's: the run it waits for ended (or none is coming)
  std::condition_variable window_moved_;      // the workers': a run may start (or they stop)
  bool loop_waits_ = false;                   // the loop sleeps on outcome_ready_
  std::size_t workers_waiting_ = 0;           // workers sleeping on window_moved_
  std::map<std::uint64_t, RunOutcome> done_;  // by plan index, not yet taken
  std::uint64_t next_ = 0;                    // the next plan index a worker starts
  std::uint64_t taken_ = 0;                   // the plan index the loop takes next
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace bspcheck::cli
