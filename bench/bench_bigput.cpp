// bench_bigput: throughput of one large bsp_put (and bsp_hpput) between two processes, against a
// plain memcpy of the same size.
//
// p = 2; process 0 puts `size` bytes into process 1's registered buffer and both call bsp_sync.
// Process 0 times put + bsp_sync (the put copies the bytes into the runtime's buffer at the call
// and the barrier copies them to the destination: two copies, by design of "buffered on source").
// The first superstep also grows the runtime's buffer (page faults); it is reported separately
// and the steady state is the median of the following supersteps. All user buffers are touched
// before timing. Each is measured with the checker off (the runtime's own cost) and on: the
// checker hashes an unbuffered operation's source and destination at the call, when it lands and
// at the barrier.
//
// The memcpy baseline is timed side by side, inside the same run: in every superstep process 0
// also copies the same bytes into a buffer of its own, before the put in even supersteps and
// after it in odd ones (so that neither always finds the source in cache), and each row's
// percentage is its puts' median against that run's memcpys' median.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"

namespace {

std::vector<double> g_times;
std::vector<double> g_memcpy_times;

void timed_memcpy(char* to, const char* from, std::size_t size) {
  const double t0 = bench::now_s();
  std::memcpy(to, from, size);
  bench::keep(to[size / 2]);
  g_memcpy_times.push_back(bench::now_s() - t0);
}

void run_put(std::size_t size, bool hp, bool checks, char* src, char* dst0, char* dst1, char* scratch) {
  const int steps = bench::reps() + 1;
  g_times.clear();
  g_memcpy_times.clear();
  bspcheck::Options o;
  o.procs = 2;
  o.seed = 3;
  o.checks = checks;
  bspcheck::RunResult res = bspcheck::run(o, [=] {
    bsp_begin(2);
    char* dst = bsp_pid() == 0 ? dst0 : dst1;
    bsp_push_reg(dst, static_cast<int>(size));
    bsp_sync();
    for (int s = 0; s < steps; ++s) {
      if (bsp_pid() == 0) {
        src[0] = static_cast<char>(s);
        if (s % 2 == 0) timed_memcpy(scratch, src, size);
        const double t0 = bench::now_s();
        if (hp) bsp_hpput(1, src, dst, 0, static_cast<int>(size));
        else bsp_put(1, src, dst, 0, static_cast<int>(size));
        bsp_sync();
        g_times.push_back(bench::now_s() - t0);
        if (s % 2 == 1) timed_memcpy(scratch, src, size);
      } else {
        bsp_sync();
        if (dst[0] != static_cast<char>(s)) bsp_abort("wrong data");
      }
    }
    bsp_pop_reg(dst);
    bsp_end();
  });
  if (!res.ok()) {
    std::fprintf(stderr, "bench_bigput: run failed: %s\n", res.summary().c_str());
    std::exit(1);
  }
}

}  // namespace

int main() {
  for (std::size_t mib : {1, 16, 64}) {
    const std::size_t size = mib << 20;
    std::vector<char> src(size, 1), dst0(size, 2), dst1(size, 3), scratch(size, 4);
    const std::string params = std::to_string(mib) + " MiB";
    auto gbs = [size](double s) { return static_cast<double>(size) / s / 1e9; };

    for (bool checks : {false, true})
    for (bool hp : {false, true}) {
      run_put(size, hp, checks, src.data(), dst0.data(), dst1.data(), scratch.data());
      const double cold = g_times.front();
      g_times.erase(g_times.begin());
      g_memcpy_times.erase(g_memcpy_times.begin());  // its first copy faults its pages in too
      const double warm = gbs(bench::median(g_times));
      const double memcpy_gbs = gbs(bench::median(g_memcpy_times));
      if (!checks && !hp) bench::row("bigput: memcpy", params, memcpy_gbs, "%.2f", "GB/s", "baseline, in the bsp_put run");
      char note[160];
      std::snprintf(note, sizeof note, "%.0f%% of memcpy in the same run (%.2f GB/s); first superstep %.2f GB/s",
                    100.0 * warm / memcpy_gbs, memcpy_gbs, gbs(cold));
      bench::row(hp ? "bigput: bsp_hpput + sync" : "bigput: bsp_put + sync",
                 params + (checks ? ", checks on" : ", checks off"), warm, "%.2f", "GB/s", note);
    }
  }
  return 0;
}
