// virtual_clock.hpp: virtual bsp_time, the cost model of docs/semantics.md. Each process has its
// own clock, in seconds since bsp_begin: every BSPlib call costs kCallCost on the caller's clock,
// and a barrier moves every clock to the latest one plus g*h + l, h being the superstep's
// h-relation in bytes. So a process's time is a function of the program's calls and
// communication only, the same under every schedule (unless the run asks for a seeded jitter,
// which World::time adds with advance()). The C library's clocks read it under virtual_time
// (engine/core/libc_clocks.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/base/huge_page_allocator.hpp"

namespace bspcheck::rt {

class VirtualClock {
 public:
  static constexpr double kCallCost = 1e-6;     // 1 us per call
  static constexpr double kByteCost = 1e-9;     // g: 1 ns per byte of the h-relation
  static constexpr double kBarrierCost = 1e-5;  // l: 10 us per barrier

  explicit VirtualClock(int nprocs = 0)
      : clocks_(static_cast<std::size_t>(nprocs), 0.0), epochs_(static_cast<std::size_t>(nprocs), 0) {}

  // A BSPlib call of process pid.
  void call(int pid) { note(at(pid) += kCallCost); }
  // pid's clock, advanced by `step` (>= 0) seconds first (a jitter, a C library clock's reading).
  double advance(int pid, double step) { return note(at(pid) += step); }
  double now(int pid) const {
    const auto i = static_cast<std::size_t>(pid);
    return epochs_[i] == epoch_ ? clocks_[i] : start_;
  }

  // The barrier that ends a superstep whose h-relation is h_bytes: max(clocks) + g*h + l for all.
  // Without a pass over the processes: the latest clock is kept as the clocks advance (they only
  // advance), and a process's clock from an older superstep reads as this superstep's start.
  void barrier(std::size_t h_bytes) {
    const double h = static_cast<double>(h_bytes);
    start_ = latest_ + kByteCost * h + kBarrierCost;
    latest_ = start_;
    ++epoch_;
  }

 private:
  double& at(int pid) {
    const auto i = static_cast<std::size_t>(pid);
    if (epochs_[i] != epoch_) {
      epochs_[i] = epoch_;
      clocks_[i] = start_;
    }
    return clocks_[i];
  }
  double note(double t) {
    latest_ = std::max(latest_, t);
    return t;
  }

  PerProcess<double> clocks_;         // valid where epochs_ holds this superstep's epoch_
  PerProcess<std::uint64_t> epochs_;  // the superstep each clock was last set in
  std::uint64_t epoch_ = 0;
  double start_ = 0;   // every clock at the start of this superstep
  double latest_ = 0;  // the largest clock
};

}  // namespace bspcheck::rt
