// bench_util.hpp: the little the benchmarks share: a steady clock, medians, peak RSS, and the
// markdown rows that bench/run_all.sh collects into one table.
//
// Every benchmark prints rows of the form
//   | benchmark | parameters | figure | unit | notes |
// on stdout; anything else goes to stderr.
#pragma once

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

// The clock: wall time (steady_clock) by default; BENCH_CLOCK=cpu takes the CPU time of the
// process instead (user + system, CLOCK_PROCESS_CPUTIME_ID), which on a shared, loaded machine
// leaves out the time the benchmark spent descheduled. Every benchmark is single-threaded.
inline bool cpu_clock() {
  static const bool cpu = [] {
    const char* e = std::getenv("BENCH_CLOCK");
    return e && std::string(e) == "cpu";
  }();
  return cpu;
}

inline double now_s() {
  if (cpu_clock()) {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Repetitions per measurement: BENCH_REPS in the environment, default 5.
inline int reps() {
  if (const char* e = std::getenv("BENCH_REPS")) {
    int r = std::atoi(e);
    if (r > 0) return r;
  }
  return 5;
}

// A scale factor for iteration counts (BENCH_SCALE, default 1): 0.1 for a quick smoke run.
inline double scale() {
  if (const char* e = std::getenv("BENCH_SCALE")) {
    double s = std::atof(e);
    if (s > 0) return s;
  }
  return 1.0;
}

inline long scaled(long n) {
  long m = static_cast<long>(static_cast<double>(n) * scale());
  return m < 1 ? 1 : m;
}

// Peak resident set size of this process, bytes.
inline std::uint64_t peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;  // Linux: KiB
}

// Current resident set size, bytes (from /proc/self/statm).
inline std::uint64_t current_rss_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  if (std::fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
  std::fclose(f);
  return static_cast<std::uint64_t>(resident) * 4096;
}

inline void row(const std::string& bench, const std::string& params, double figure, const char* fmt,
                const std::string& unit, const std::string& notes = "") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, figure);
  std::printf("| %s | %s | %s | %s | %s |\n", bench.c_str(), params.c_str(), buf, unit.c_str(), notes.c_str());
  std::fflush(stdout);
}

// Keeps the compiler from optimizing a value away.
template <typename T>
inline void keep(T const& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

}  // namespace bench
