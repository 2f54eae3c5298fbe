#include "tools/launch/cores_available.hpp"

#include <sched.h>

#include <algorithm>
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
    unsigned long long period = 0;
    if (!(in >> quota >> period) || period == 0 || quota.size() > 18 ||
        quota.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const unsigned long long q = std::stoull(quota);
    const auto cores = static_cast<unsigned>(std::max<unsigned long long>(1, (q + period - 1) / period));
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
