// run_servers.cpp: a run session's runs, from fork servers, worker threads ahead, or started anew.
#include "tools/launch/run_servers.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <utility>

#include "runtime/isolation/file_view.hpp"
#include "tools/launch/cores_available.hpp"
#include "tools/launch/file_view_probe.hpp"
#include "tools/launch/interrupt.hpp"

namespace bspcheck::cli {

void RunServers::start_workers(unsigned jobs, std::uint64_t total, const Shard& shard, std::uint64_t from) {
  worker_servers_.resize(jobs);
  if (!use_servers_ || jobs <= 1 || total <= from + 1) return;
  ran_ahead_ = true;
  prefetch_.emplace(
      jobs, from, total,
      [this, shard](std::uint64_t i) {
        const std::uint64_t k = shard.index + i * shard.count;  // the session's run number
        return std::make_pair(c_.procs[static_cast<std::size_t>(k / c_.seeds)], c_.seed + k % c_.seeds);
      },
      [this](std::size_t worker, int p, std::uint64_t seed) { return run_on_worker(worker, p, seed); },
      4 * static_cast<std::size_t>(jobs));
}

std::optional<RunOutcome> RunServers::take_ahead(int p, std::uint64_t seed) {
  return prefetch_ ? prefetch_->take(p, seed) : std::nullopt;
}

RunOutcome RunServers::run(int p, std::uint64_t seed) {
  RunOutcome r;
  bool served = false;
  if (use_servers_ && !no_server_.count(p)) {
    std::unique_ptr<ForkServer>& server = servers_[p];
    if (!server) {
      server = std::make_unique<ForkServer>();
      if (!server->start(c_, program_, p, in_)) server.reset();
    }
    if (server) served = server->run(c_, p, seed, r);
    if (!served) {  // e.g. a program that never reaches bsp_begin: run it the usual way
      servers_.erase(p);
      no_server_.insert(p);
      r = RunOutcome{};
    }
  }
  if (!served && !interrupted()) r = run_once(c_, program_, p, seed, in_, stream_);
  return r;
}

RunOutcome RunServers::run_on_worker(std::size_t worker, int p, std::uint64_t seed) {
  RunOutcome r;
  std::unique_ptr<ForkServer>& server = worker_servers_[worker][p];
  bool served = false;
  bool usable;
  {
    const std::lock_guard<std::mutex> lock(no_server_mutex_);
    usable = !worker_no_server_.count(p);
  }
  if (usable && !server) {
    server = std::make_unique<ForkServer>();
    if (!server->start(c_, program_, p, in_)) server.reset();
  }
  if (server) served = server->run(c_, p, seed, r);
  if (!served) {
    server.reset();
    {
      const std::lock_guard<std::mutex> lock(no_server_mutex_);
      worker_no_server_.insert(p);
    }
    r = RunOutcome{};
    if (!interrupted()) r = run_once(c_, program_, p, seed, in_, false);
  }
  return r;
}

void RunServers::stop() {
  prefetch_.reset();  // no more runs ahead; the ones under way end (an interrupt kills them)
  worker_servers_.clear();
  servers_.clear();
}

unsigned session_jobs(const RunConfig& c, const std::string& program, std::uint64_t total) {
  const unsigned asked = c.jobs ? c.jobs : cores_available();
  const char* file_view = std::getenv(rt::kFileViewEnvironment);
  if (file_view && std::strcmp(file_view, "refuse") == 0) return 1;
  if (asked == 1 || total < 2 || (file_view && std::strcmp(file_view, "private") != 0)) return asked;
  const std::string refusal = file_view_refusal_of(program);
  if (refusal.empty()) return asked;
  std::cerr << "bsp-check: note: runs go one at a time, not " << asked
            << " side by side: the kernel refused each run a view of its own files (" << refusal
            << "), so they share the working directory and the temporary directory\n";
  return 1;
}

}  // namespace bspcheck::cli
