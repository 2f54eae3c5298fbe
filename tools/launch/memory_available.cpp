#include "tools/launch/memory_available.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tools/launch/own_cgroup.hpp"

namespace bspcheck::cli {

namespace {

void bound_by(MemoryBound& b, std::uint64_t bytes, const std::string& what) {
  if (bytes < b.bytes) b = {bytes, what};
}

// MemAvailable of /proc/meminfo, in bytes; 0 when the kernel does not say.
std::uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return std::stoull(line.substr(13)) * 1024;
  return 0;
}

}  // namespace

MemoryBound memory_available() {
  MemoryBound b;
  if (const std::uint64_t m = mem_available()) bound_by(b, m, "MemAvailable, /proc/meminfo");
  rlimit r{};
  if (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
    bound_by(b, r.rlim_cur, "the data size limit, ulimit -d");
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
    bound_by(b, r.rlim_cur, "the address space limit, ulimit -v");
  if (const std::string dir = own_cgroup_dir(); !dir.empty()) {
    std::uint64_t max = 0, current = 0;
    if (cgroup_number(dir + "/memory.max", max) && cgroup_number(dir + "/memory.current", current))
      bound_by(b, max > current ? max - current : 0, "the cgroup's memory.max less memory.current");
  }
  return b;
}

std::string bytes_text(std::uint64_t bytes) {
  char buf[32];
  if (bytes >= (std::uint64_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1 << 30));
  else std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / static_cast<double>(1 << 20));
  return buf;
}

}  // namespace bspcheck::cli
