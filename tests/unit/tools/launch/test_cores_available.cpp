// cores_available: -j's default counts the processors this process may run on, not the machine's.
#include "tools/launch/cores_available.hpp"

#include <gtest/gtest.h>
#include <sched.h>

namespace {

TEST(CoresAvailable, CountsTheProcessorsOfTheAffinityMask) {
  cpu_set_t all;
  CPU_ZERO(&all);
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  const unsigned before = bspcheck::cli::cores_available();
  EXPECT_GE(before, 1u);
  EXPECT_LE(before, static_cast<unsigned>(CPU_COUNT(&all)));
  // Pinned to one processor, as `taskset -c N` pins a process: one run at a time.
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &all)) {
      CPU_SET(cpu, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const unsigned pinned = bspcheck::cli::cores_available();
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(pinned, 1u);
  EXPECT_EQ(bspcheck::cli::cores_available(), before);
}

}  // namespace
