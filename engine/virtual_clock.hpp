// virtual_clock.hpp: virtual bsp_time, the cost model of docs/semantics.md. Each process has its
// own clock, in seconds since bsp_begin: every BSPlib call costs kCallCost on the caller's clock,
// and a barrier moves every clock to the latest one plus g*h + l, h being the superstep's
// h-relation in bytes. So a process's time is a function of the program's calls and
// communication only, the same under every schedule (unless the run asks for a seeded jitter,
// which World::time adds with advance()). The C library's clocks read it under virtual_time
// (engine/virtual_clock.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace bspcheck::rt {

class VirtualClock {
 public:
  static constexpr double kCallCost = 1e-6;     // 1 us per call
  static constexpr double kByteCost = 1e-9;     // g: 1 ns per byte of the h-relation
  static constexpr double kBarrierCost = 1e-5;  // l: 10 us per barrier

  explicit VirtualClock(int nprocs = 0) : clocks_(static_cast<std::size_t>(nprocs), 0.0) {}

  // A BSPlib call of process pid.
  void call(int pid) { clocks_[static_cast<std::size_t>(pid)] += kCallCost; }
  // pid's clock, advanced by `step` seconds first (a jitter, a C library clock's reading).
  double advance(int pid, double step) { return clocks_[static_cast<std::size_t>(pid)] += step; }
  double now(int pid) const { return clocks_[static_cast<std::size_t>(pid)]; }

  // The barrier that ends a superstep whose h-relation is h_bytes: max(clocks) + g*h + l for all.
  void barrier(std::size_t h_bytes) {
    double t = 0;
    for (double c : clocks_) t = std::max(t, c);
    const double h = static_cast<double>(h_bytes);
    for (double& c : clocks_) c = t + kByteCost * h + kBarrierCost;
  }

 private:
  std::vector<double> clocks_;
};

}  // namespace bspcheck::rt
