// memory_available.hpp: how much memory a run the driver starts may still take, for the commands
// that can tell beforehand that it will not fit (bsp-check replay of many MPI ranks' records in
// one process: docs/mpi.md, "Record and replay").
#pragma once

#include <cstdint>
#include <string>

namespace bspcheck::cli {

struct MemoryBound {
  std::uint64_t bytes = UINT64_MAX;  // UINT64_MAX: nothing bounds it
  std::string what;                  // which bound it is ("MemAvailable, /proc/meminfo", ...)
};

// The least of: the kernel's estimate of the memory available without swapping (MemAvailable),
// this process's limits on its data and address space (ulimit -d, ulimit -v: a child inherits
// them), and its cgroup's memory.max less memory.current (a container's or a job's limit).
MemoryBound memory_available();

// "512 MiB", "3.2 GiB": a size for people.
std::string bytes_text(std::uint64_t bytes);

}  // namespace bspcheck::cli
