// bench_scale: a ring superstep with many processes in one OS process.
//
// Every process registers one 8-byte word, then for S supersteps puts its pid into the word of
// pid+1 and calls bsp_sync. Each configuration runs in a forked child so that its peak RSS
// (ru_maxrss, from wait4) is its own. Reported per configuration:
//   start      bspcheck::run called -> the first process resumes after the first bsp_sync (world,
//              stacks and contexts created, every process started and run to its first sync)
//   superstep  median over the S ring supersteps (p puts, p switch points, one barrier)
//   empty      median over E empty supersteps that follow (every process only calls bsp_sync):
//              the cost of a superstep itself, per process
//   end        the last superstep -> bspcheck::run returned (bsp_end, p-1 stacks unwound,
//              world torn down)
//   RSS        peak resident set of the child, and its RSS before the run
// Usage: bench_scale [p stack_kib]...   (default: 1000 10000 100000 at 64 KiB, 100000 at 256 KiB)
// BENCH_STRATEGY=round_robin (any --strategy name) runs the processes in another order than the
// default strategy's: round robin visits them in the order of their memory.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"

namespace {

// Ring supersteps per run: 5, or BENCH_RING_STEPS.
const int kSteps = [] {
  const char* e = std::getenv("BENCH_RING_STEPS");
  return e && std::atoi(e) > 0 ? std::atoi(e) : 5;
}();
// Empty supersteps per run, after the ring: 5, or BENCH_EMPTY_STEPS.
const int kEmptySteps = [] {
  const char* e = std::getenv("BENCH_EMPTY_STEPS");
  return e && std::atoi(e) > 0 ? std::atoi(e) : 5;
}();

struct Report {
  double start_s, superstep_s, empty_s, end_s, total_s;
  std::uint64_t rss_before;
  std::uint64_t switches;
  int errors;
};

std::vector<double> g_stamp;
int g_seen = 0;

void stamp(int step) {
  if (g_seen < step) {
    g_seen = step;
    g_stamp[static_cast<std::size_t>(step)] = bench::now_s();
  }
}

int g_errors = 0;

Report measure(int p, std::size_t stack_kib) {
  Report rep{};
  rep.rss_before = bench::current_rss_bytes();
  g_stamp.assign(kSteps + kEmptySteps + 2, 0.0);
  bspcheck::Options o;
  o.procs = p;
  o.seed = 5;
  o.stack_size = stack_kib * 1024;
  o.capture_output = false;
  if (const char* e = std::getenv("BENCH_STRATEGY")) bspcheck::strategy_from_name(e, o.strategy);
  const double t0 = bench::now_s();
  bspcheck::RunResult res = bspcheck::run(o, [] {
    bsp_begin(bsp_nprocs());
    const int p = bsp_nprocs(), pid = bsp_pid();
    std::int64_t word = -1;
    bsp_push_reg(&word, 8);
    bsp_sync();
    stamp(1);
    for (int s = 0; s < kSteps; ++s) {
      const std::int64_t v = pid + s;
      bsp_put((pid + 1) % p, &v, &word, 0, 8);
      bsp_sync();
      stamp(2 + s);
      if (word != (pid + p - 1) % p + s) ++g_errors;
    }
    for (int e = 0; e < kEmptySteps; ++e) {
      bsp_sync();
      stamp(2 + kSteps + e);
    }
    bsp_pop_reg(&word);
    bsp_end();
  });
  const double t1 = bench::now_s();
  if (!res.ok() || res.nprocs != p) {
    std::fprintf(stderr, "bench_scale: p=%d failed: %s\n", p, res.summary().c_str());
    ++g_errors;
  }
  std::vector<double> steps;
  for (int s = 0; s < kSteps; ++s) steps.push_back(g_stamp[2 + s] - g_stamp[1 + s]);
  std::vector<double> empty;
  for (int e = 0; e < kEmptySteps; ++e) empty.push_back(g_stamp[2 + kSteps + e] - g_stamp[1 + kSteps + e]);
  rep.start_s = g_stamp[1] - t0;
  rep.superstep_s = bench::median(steps);
  rep.empty_s = bench::median(empty);
  rep.end_s = t1 - g_stamp[1 + kSteps + kEmptySteps];
  rep.total_s = t1 - t0;
  rep.switches = res.switches;
  rep.errors = g_errors;
  return rep;
}

void run_config(int p, std::size_t stack_kib) {
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    Report r = measure(p, stack_kib);
    if (write(fds[1], &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  Report r{};
  const bool got = read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
  close(fds[0]);
  int status = 0;
  rusage ru{};
  wait4(child, &status, 0, &ru);
  const std::string params = "p=" + std::to_string(p) + ", " + std::to_string(stack_kib) + " KiB stacks";
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || r.errors) {
    bench::row("ring", params, 0, "%.0f", "FAILED", "status " + std::to_string(status));
    return;
  }
  const double rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  char note[160];
  std::snprintf(note, sizeof note, "%.0f ns per process per superstep", r.superstep_s * 1e9 / p);
  bench::row("ring: superstep", params, r.superstep_s * 1e3, "%.3f", "ms", note);
  std::snprintf(note, sizeof note, "%.1f ns per process", r.empty_s * 1e9 / p);
  bench::row("empty superstep", params, r.empty_s * 1e3, "%.3f", "ms", note);
  bench::row("ring: start", params, r.start_s * 1e3, "%.1f", "ms", "run() -> all processes through the first bsp_sync");
  bench::row("ring: end", params, r.end_s * 1e3, "%.1f", "ms", "bsp_end, unwinding, teardown");
  std::snprintf(note, sizeof note, "%.1f KiB per process; RSS before run %.1f MiB",
                (static_cast<double>(ru.ru_maxrss) - static_cast<double>(r.rss_before) / 1024.0) / p,
                static_cast<double>(r.rss_before) / (1024.0 * 1024.0));
  bench::row("ring: peak RSS", params, rss_mib, "%.1f", "MiB", note);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    for (int i = 1; i + 1 < argc; i += 2)
      run_config(std::atoi(argv[i]), static_cast<std::size_t>(std::atol(argv[i + 1])));
    return 0;
  }
  for (int p : {1000, 10000, 100000}) run_config(p, 64);
  run_config(100000, 256);
  return 0;
}
