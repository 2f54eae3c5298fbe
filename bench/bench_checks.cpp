// bench_checks: what the default checks cost. Each workload runs with Options::checks on (the
// default) and off (bsp-check run --no-check); the figure is the ratio of the two times (issue
// 47's goal 3: at most 1.5x on the hp ring and on partially overlapping puts, at most 1.1x on the
// kernels).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"

namespace {

constexpr int kP = 4;

double time_run(bool checks, const std::function<void()>& body) {
  bspcheck::Options o;
  o.procs = kP;
  o.seed = 11;
  o.checks = checks;
  o.stack_size = 64 * 1024;
  const double t0 = bench::now_s();
  bspcheck::RunResult r = bspcheck::run(o, body);
  const double t = bench::now_s() - t0;
  if (!r.ok()) {
    std::fprintf(stderr, "bench_checks: run failed: %s\n", r.summary().c_str());
    std::exit(1);
  }
  return t;
}

// n 8-byte puts per process, into distinct words of the neighbour (no two writes overlap), or
// all into the same 1024 words with equal data (every write overlaps others).
void puts(long n, bool overlapping) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  const long words = overlapping ? 1024 : n;
  std::vector<std::uint64_t> area(static_cast<std::size_t>(words), 0);
  bsp_push_reg(area.data(), static_cast<int>(words * 8));
  bsp_sync();
  const std::uint64_t v = 42;
  for (long i = 0; i < n; ++i) bsp_put(to, &v, area.data(), static_cast<int>((i % words) * 8), 8);
  bsp_sync();
  bsp_pop_reg(area.data());
  bsp_end();
}

// Many supersteps of a few dozen puts each: every barrier orders the superstep's writes by
// address, where sorting them afresh had been a fifth of the run.
void put_supersteps(long steps) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  std::uint64_t area[64] = {};
  bsp_push_reg(area, sizeof area);
  bsp_sync();
  const std::uint64_t v = 42;
  for (long s = 0; s < steps; ++s) {
    for (int k = 0; k < 64; ++k) bsp_put(to, &v, area, k * 8, 8);
    bsp_sync();
  }
  bsp_pop_reg(area);
  bsp_end();
}

void hpputs(long n) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  std::vector<std::uint64_t> area(static_cast<std::size_t>(n), 0), src(static_cast<std::size_t>(n), 7);
  bsp_push_reg(area.data(), static_cast<int>(n * 8));
  bsp_sync();
  for (long i = 0; i < n; ++i)
    bsp_hpput(to, &src[static_cast<std::size_t>(i)], area.data(), static_cast<int>(i * 8), 8);
  bsp_sync();
  bsp_pop_reg(area.data());
  bsp_end();
}

void messages(long n) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  const std::uint64_t v = 42;
  for (long i = 0; i < n; ++i) bsp_send(to, nullptr, &v, 8);
  bsp_sync();
  std::uint64_t x = 0;
  for (long i = 0; i < n; ++i) bsp_move(&x, 8);
  bench::keep(x);
  bsp_sync();
  bsp_end();
}

// Many small supersteps: one put and one message per process each.
void ring(long steps) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  std::uint64_t slot = 0, v = 1, x = 0;
  bsp_push_reg(&slot, 8);
  bsp_sync();
  for (long s = 0; s < steps; ++s) {
    bsp_put(to, &v, &slot, 0, 8);
    bsp_send(to, nullptr, &v, 8);
    bsp_sync();
    bsp_move(&x, 8);
  }
  bsp_pop_reg(&slot);
  bsp_sync();
  bsp_end();
}

// Issue 47's hp ring: every process issues 16 bsp_hpput of 64 bytes to its successor per
// superstep, into 16 distinct slots, then syncs.
void hp_ring(long steps) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  std::uint64_t area[16 * 8] = {}, src[16 * 8] = {};
  bsp_push_reg(area, sizeof area);
  bsp_sync();
  for (long s = 0; s < steps; ++s) {
    for (int k = 0; k < 16; ++k) bsp_hpput(to, &src[k * 8], area, k * 64, 64);
    bsp_sync();
  }
  bsp_pop_reg(area);
  bsp_end();
}

// Puts that overlap partially: put k writes 16 bytes at offset 8k of the successor's area, so each
// shares 8 bytes with the next one (different data: the later write wins, no collision finding
// since one process writes both in program order).
void partial_overlaps(long n) {
  bsp_begin(kP);
  const int to = (bsp_pid() + 1) % kP;
  const long words = 1024;
  std::vector<std::uint64_t> area(static_cast<std::size_t>(words + 1), 0);
  bsp_push_reg(area.data(), static_cast<int>((words + 1) * 8));
  bsp_sync();
  std::uint64_t v[2] = {1, 2};
  for (long i = 0; i < n; ++i) {
    v[0] = static_cast<std::uint64_t>(i);
    bsp_put(to, v, area.data(), static_cast<int>((i % words) * 8), 16);
  }
  bsp_sync();
  bsp_pop_reg(area.data());
  bsp_end();
}

// The kernels the checks must not slow: an inner product (local sums, every partial sum put to
// every process, a final sum) and an all-to-all of one 8-byte put per pair, many supersteps each.
void inner_product(long n) {
  bsp_begin(kP);
  const int p = bsp_nprocs();
  std::vector<double> x(static_cast<std::size_t>(n), 1.5), sums(static_cast<std::size_t>(p), 0);
  bsp_push_reg(sums.data(), static_cast<int>(p * sizeof(double)));
  bsp_sync();
  for (int round = 0; round < 20; ++round) {
    double local = 0;
    for (double v : x) local += v * v;
    for (int q = 0; q < p; ++q)
      bsp_put(q, &local, sums.data(), bsp_pid() * static_cast<int>(sizeof(double)), sizeof(double));
    bsp_sync();
    double total = 0;
    for (double v : sums) total += v;
    bench::keep(total);
  }
  bsp_pop_reg(sums.data());
  bsp_end();
}

void all_to_all(long steps) {
  bsp_begin(kP);
  const int p = bsp_nprocs();
  std::vector<std::uint64_t> in(static_cast<std::size_t>(p), 0);
  bsp_push_reg(in.data(), static_cast<int>(p * 8));
  bsp_sync();
  for (long s = 0; s < steps; ++s) {
    const std::uint64_t v = static_cast<std::uint64_t>(s);
    for (int q = 0; q < p; ++q) bsp_put(q, &v, in.data(), bsp_pid() * 8, 8);
    bsp_sync();
  }
  bsp_pop_reg(in.data());
  bsp_end();
}

// BENCH_ONLY=text: only the workloads whose name contains it; BENCH_SIDE=on or off: only the
// checked or the unchecked runs (no ratio then), to count one side's instructions under callgrind.
bool wanted(const char* name) {
  const char* only = std::getenv("BENCH_ONLY");
  return !only || std::strstr(name, only) != nullptr;
}
bool side_wanted(bool checks) {
  const char* side = std::getenv("BENCH_SIDE");
  return !side || std::string(side) == (checks ? "on" : "off");
}

void measure(const char* name, const std::string& params, const std::function<void()>& body) {
  if (!wanted(name)) return;
  std::vector<double> on, off;
  for (int r = 0; r < bench::reps(); ++r) {
    if (side_wanted(false)) off.push_back(time_run(false, body));
    if (side_wanted(true)) on.push_back(time_run(true, body));
  }
  if (on.empty() || off.empty()) {
    std::fprintf(stderr, "bench_checks: %s: %.1f ms (one side only)\n", name,
                 bench::median(on.empty() ? off : on) * 1e3);
    return;
  }
  const double ratio = bench::median(on) / bench::median(off);
  char note[160];
  std::snprintf(note, sizeof note, "checks on %.1f ms, off %.1f ms", bench::median(on) * 1e3, bench::median(off) * 1e3);
  bench::row(name, params, ratio, "%.2f", "x", note);
}

}  // namespace

int main() {
  const long n = bench::scaled(250'000);
  const std::string each = "p=4, " + std::to_string(n) + " per process";
  measure("checks: bsp_put 8 B, disjoint", each, [n] { puts(n, false); });
  measure("checks: bsp_put 8 B, overlapping equal data", each, [n] { puts(n, true); });
  const long put_steps = bench::scaled(4'000);
  measure("checks: 64 puts per superstep", "p=4, " + std::to_string(put_steps) + " supersteps",
          [put_steps] { put_supersteps(put_steps); });
  measure("checks: bsp_hpput 8 B", each, [n] { hpputs(n); });
  measure("checks: bsp_send + bsp_move 8 B", each, [n] { messages(n); });
  const long steps = bench::scaled(20'000);
  measure("checks: ring supersteps", "p=4, " + std::to_string(steps) + " supersteps", [steps] { ring(steps); });
  const long hp_steps = bench::scaled(20'000);
  measure("checks: hp ring, 16 bsp_hpput of 64 B per superstep", "p=4, " + std::to_string(hp_steps) + " supersteps",
          [hp_steps] { hp_ring(hp_steps); });
  measure("checks: bsp_put 16 B, overlapping partially", each, [n] { partial_overlaps(n); });
  const long kernel_n = bench::scaled(200'000);
  measure("checks: kernel, inner product", "p=4, " + std::to_string(kernel_n) + " doubles per process, 20 rounds",
          [kernel_n] { inner_product(kernel_n); });
  const long a2a_steps = bench::scaled(20'000);
  measure("checks: kernel, all-to-all of 8 B puts", "p=4, " + std::to_string(a2a_steps) + " supersteps",
          [a2a_steps] { all_to_all(a2a_steps); });
  return 0;
}
