// cores_available.hpp: how many runs may go at once by default (-j's default, one per core): the
// processors this process may run on, not the machine's. `taskset -c 0,1 bsp-check ...` or a
// benchmark harness's pinning gives it 2, as does a container or batch job limited to two
// processors' time (its cgroup's cpu.max); more runs than that only wait for each other.
#pragma once

namespace bspcheck::cli {

// The least of: the processors in this thread's affinity mask (sched_getaffinity), and the
// processors' worth of time that its cgroup and the cgroups above it allow (cpu.max, rounded up);
// at least 1.
unsigned cores_available();

}  // namespace bspcheck::cli
