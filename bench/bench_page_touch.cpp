// bench_page_touch: what touching memory in the order of a random schedule costs on this
// machine, without the runtime: the floor under issue 47's goal 2 (docs/performance.md,
// "Issue 47, goal 2: where the time goes at 10^6 processes").
//
// N slots of S bytes each (16 KiB: one process's stack; 64 B: a line of a dense array) are
// made resident, then one line of each is read in a random order, with a little work between
// reads as a switch has. Rows:
//   random           the order a uniform schedule visits processes in
//   sequential       the order round robin visits them in (the hardware prefetcher's case)
//   prefetch 1 ahead the next slot of the random order fetched one visit before it is read
//   + K useless      the same, with K more prefetches of random slots that are not read: what
//                    guessing wrong costs when every guess needs a walk of the page tables
// Usage: bench_page_touch [N] [S]   (default 1000000 16384)
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

struct Touch {
  char* base;
  std::size_t slots, stride;
};

// ns per visit: `ahead` > 0 prefetches order[i + ahead]; `useless` more random prefetches.
double visit(const Touch& t, const std::vector<std::uint32_t>& order, int ahead, int useless) {
  std::uint64_t sum = 0;
  std::vector<double> times;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = bench::now_s();
    for (std::size_t i = 0; i < t.slots; ++i) {
      if (ahead > 0 && i + static_cast<std::size_t>(ahead) < t.slots) {
        __builtin_prefetch(t.base + std::size_t{order[i + static_cast<std::size_t>(ahead)]} * t.stride, 1, 3);
        for (int k = 1; k <= useless; ++k)
          __builtin_prefetch(
              t.base + std::size_t{order[(i * 7919 + static_cast<std::size_t>(k) * 104729) % t.slots]} * t.stride + 128,
              1, 3);
      }
      std::uint64_t words[8];
      std::memcpy(words, t.base + std::size_t{order[i]} * t.stride, sizeof words);  // a saved context's line
      sum += words[0] ^ words[7];
      for (int k = 0; k < 50; ++k) sum = sum * 31 + static_cast<std::uint64_t>(k);  // the switch's own work
    }
    times.push_back((bench::now_s() - t0) * 1e9 / static_cast<double>(t.slots));
  }
  bench::keep(sum);
  return bench::median(times);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t slots = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000;
  const std::size_t stride = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 16384;
  if (slots < 2 || stride < 64) {
    std::fprintf(stderr, "usage: bench_page_touch [N >= 2] [S >= 64]\n");
    return 2;
  }
  Touch t{nullptr, slots, stride};
  void* m = mmap(nullptr, slots * stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    std::perror("bench_page_touch: mmap");
    return 1;
  }
  madvise(m, slots * stride, MADV_NOHUGEPAGE);  // as the runtime's stacks are
  t.base = static_cast<char*>(m);
  for (std::size_t i = 0; i < slots; ++i) t.base[i * stride] = 1;
  std::vector<std::uint32_t> sequential(slots);
  std::iota(sequential.begin(), sequential.end(), 0u);
  std::vector<std::uint32_t> random = sequential;
  std::shuffle(random.begin(), random.end(), std::mt19937_64(5));

  const std::string params = "N=" + std::to_string(slots) + ", " + std::to_string(stride) + " B apart";
  bench::row("page touch: random", params, visit(t, random, 0, 0), "%.1f", "ns per visit");
  bench::row("page touch: sequential", params, visit(t, sequential, 0, 0), "%.1f", "ns per visit");
  bench::row("page touch: random, prefetch 1 ahead", params, visit(t, random, 1, 0), "%.1f", "ns per visit");
  bench::row("page touch: random, prefetch 4 ahead", params, visit(t, random, 4, 0), "%.1f", "ns per visit");
  for (int useless : {2, 5, 9})
    bench::row("page touch: random, prefetch 1 ahead + " + std::to_string(useless) + " useless", params,
               visit(t, random, 1, useless), "%.1f", "ns per visit");
  munmap(m, slots * stride);
  return 0;
}
