// bench_throw.cpp: what a C++ throw costs a program under bsp-check. The runtime notes every
// throw's stack (runtime/executable/throw_sites.cpp, call_stacks.cpp), so that an exception nothing catches
// is located at the line that threw it. Built twice from this file: bench_throw, with the runtime
// (the loop inside bsp_begin), and bench_throw_native, without it (-DBENCH_NATIVE). Both throw
// and catch N exceptions from the same site, the handler 1 and 9 frames up, and print one
// markdown row each; bench/run_all.sh runs the two one after the other.
//
//   build/bench/bench_throw 200000; build/bench/bench_throw_native 200000
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#ifndef BENCH_NATIVE
#include <bsp.h>
#endif

// A frame per level, so that the throw unwinds `depth` frames to its handler.
__attribute__((noinline)) int thrower(int depth) {
  if (depth == 0) throw std::runtime_error("bench");
  const int below = thrower(depth - 1);
  __asm__ volatile("" ::: "memory");  // not a loop: each level keeps its frame
  return below + 1;
}

int main(int argc, char** argv) {
#ifndef BENCH_NATIVE
  bsp_begin(1);
  const char* who = "bsp-check";
#else
  const char* who = "native";
#endif
  const long n = argc > 1 ? std::atol(argv[1]) : 200000;
  for (int depth : {0, 8}) {
    long caught = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      try {
        thrower(depth);
      } catch (const std::runtime_error&) {
        ++caught;
      }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (caught != n) return 1;
    std::printf("| throw and catch | %s, handler %d frames up | %.0f | ns per throw | |\n", who, depth + 1,
                s * 1e9 / static_cast<double>(n));
  }
#ifndef BENCH_NATIVE
  bsp_end();
#endif
  return 0;
}
