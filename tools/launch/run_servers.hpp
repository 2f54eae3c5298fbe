// run_servers.hpp: where a `bsp-check run` session's runs come from: forked from a fork server
// of the run's p (one per p, started at its first run: tools/launch/fork_server_client.hpp), or
// started anew (tools/launch/run_launcher.hpp) where there is none; and with -j, taken from worker
// threads that run the session's next runs ahead on fork servers of their own
// (tools/launch/run_prefetch.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/cli/run_config.hpp"
#include "tools/launch/fork_server_client.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/run_prefetch.hpp"
#include "tools/launch/shard.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

class RunServers {
 public:
  // use_servers: runs are forked from servers where they can be; stream: a run started anew by
  // run() shows its output live (a single run).
  RunServers(const RunConfig& c, const std::string& program, StdinFeed& in, bool use_servers, bool stream)
      : c_(c), program_(program), in_(in), use_servers_(use_servers), stream_(stream) {}
  RunServers(const RunServers&) = delete;
  RunServers& operator=(const RunServers&) = delete;

  // -j: `jobs` workers run this shard's `total` runs ahead (with servers, and more than one of
  // each), from its run number `from` (the ones before, the session runs itself).
  void start_workers(unsigned jobs, std::uint64_t total, const Shard& shard, std::uint64_t from = 0);
  // The outcome of (p, seed) when a worker ran it ahead; nothing otherwise.
  std::optional<RunOutcome> take_ahead(int p, std::uint64_t seed);
  // Did workers run runs ahead, side by side (stop() ends them, and leaves this as it was)?
  bool ran_ahead() const { return ran_ahead_; }
  // One run at (p, seed): forked from p's server when there is one, else started anew.
  RunOutcome run(int p, std::uint64_t seed);
  // No more runs: the workers' runs under way end (an interrupt kills them), and the servers and
  // their folders are gone.
  void stop();

 private:
  // The same as run() on a worker's thread, with the worker's own servers.
  RunOutcome run_on_worker(std::size_t worker, int p, std::uint64_t seed);

  const RunConfig& c_;
  const std::string& program_;
  StdinFeed& in_;
  const bool use_servers_, stream_;
  std::map<int, std::unique_ptr<ForkServer>> servers_;  // one per p
  std::set<int> no_server_;                             // the p whose server could not serve a run
  std::vector<std::map<int, std::unique_ptr<ForkServer>>> worker_servers_;
  std::mutex no_server_mutex_;
  std::set<int> worker_no_server_;
  bool ran_ahead_ = false;
  std::optional<RunPrefetch> prefetch_;  // last: its workers use the members above until it is gone
};

// How many runs go side by side: -j's (default: one per core it may use, cores_available.hpp),
// or one at a time where the runs share the real directories. That is the fallback where the
// kernel refuses each run a view of its own files (runtime/isolation/file_view.hpp), forced
// (BSPCHECK_FILE_VIEW=refuse, the fallback's test) or found by asking the program's runtime once:
// side by side the runs would meet in the same files. Said once, at the start (with -q too: the
// runs' results depend on it).
unsigned session_jobs(const RunConfig& c, const std::string& program, std::uint64_t total);

}  // namespace bspcheck::cli
