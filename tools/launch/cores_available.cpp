#include "tools/launch/cores_available.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>

#include "tools/launch/own_cgroup.hpp"

namespace bspcheck::cli {

namespace {

// The processors' worth of time cpu.max allows ("QUOTA PERIOD", or "max PERIOD": no bound) in
// `dir` and every cgroup above it, rounded up; 0 where nothing bounds it.
unsigned cgroup_cores(std::string dir) {
  unsigned least = 0;
  for (; dir.size() > std::string("/sys/fs/cgroup").size(); dir.resize(dir.rfind('/'))) {
    std::ifstream in(dir + "/cpu.max");
    std::string quota;
    std::uint64_t q = 0, period = 0;
    if (!(in >> quota >> period) || period == 0 || !cgroup_word_number(quota, q)) continue;
    const auto cores = static_cast<unsigned>(std::max<std::uint64_t>(1, (q + period - 1) / period));
    least = least ? std::min(least, cores) : cores;
  }
  return least;
}

}  // namespace

unsigned cores_available() {
  unsigned n = std::thread::hardware_concurrency();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    n = static_cast<unsigned>(CPU_COUNT(&set));  // (a mask wider than 1024 processors: the machine's count)
  if (const std::string dir = own_cgroup_dir(); !dir.empty())
    if (const unsigned bound = cgroup_cores(dir); bound && bound < n) n = bound;
  return std::max(1u, n);
}

}  // namespace bspcheck::cli
