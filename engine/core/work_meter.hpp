// work_meter.hpp: Options::measure_work, each process's own CPU time between its switch points,
// for the work records of a trace (bsp-check show). The thread runs one process at a time: at a
// switch the thread's CPU time since `from` got the processor is its work, and `to` starts
// counting. A measurement only: no choice depends on it.
#pragma once

#include <time.h>

#include <cstdint>
#include <vector>

namespace bspcheck::rt {

class WorkMeter {
 public:
  // on: measuring (process 0, which runs first, starts counting now).
  WorkMeter(int nprocs, bool on) : on_(on), procs_(static_cast<std::size_t>(nprocs)) {
    if (on_ && nprocs > 0) procs_[0].since = cpu_now_ns();
  }
  bool on() const { return on_; }

  // The processor goes from process `from` (-1: none, it left) to process `to`.
  void switched(int from, int to) {
    const std::uint64_t now = cpu_now_ns();
    if (from >= 0) procs_[static_cast<std::size_t>(from)].work += now - procs_[static_cast<std::size_t>(from)].since;
    procs_[static_cast<std::size_t>(to)].since = now;
  }
  // The running process pid's work since its last record (in ns), which starts again now.
  std::uint64_t take(int pid) {
    Process& p = procs_[static_cast<std::size_t>(pid)];
    const std::uint64_t now = cpu_now_ns();
    const std::uint64_t work = p.work + (now - p.since);
    p.work = 0;
    p.since = now;
    return work;
  }

  // The CPU time of the calling thread (not virtualised: engine/core/libc_clocks.cpp leaves CPU clocks).
  static std::uint64_t cpu_now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
  }

 private:
  struct Process {
    std::uint64_t work = 0;   // CPU time run since its last record
    std::uint64_t since = 0;  // when it last got the processor
  };
  bool on_;
  std::vector<Process> procs_;
};

}  // namespace bspcheck::rt
