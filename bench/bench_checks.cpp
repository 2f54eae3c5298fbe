// bench_checks: what the default checks cost. Each workload runs with Options::checks on (the
// default) and off (bsp-check run --no-check); the figure is the ratio of the two times (goal:
// at most 2x).
#include <cstdint>
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
  for (long i = 0; i < n; ++i) bsp_hpput(to, &src[static_cast<std::size_t>(i)], area.data(), static_cast<int>(i * 8), 8);
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

void measure(const char* name, const std::string& params, const std::function<void()>& body) {
  std::vector<double> on, off;
  for (int r = 0; r < bench::reps(); ++r) {
    off.push_back(time_run(false, body));
    on.push_back(time_run(true, body));
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
  return 0;
}
