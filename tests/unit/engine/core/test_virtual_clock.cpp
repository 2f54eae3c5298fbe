// engine/core/virtual_clock.hpp on its own: the cost model of virtual bsp_time (docs/semantics.md),
// and the C library's clocks reading it under virtual_time (engine/core/libc_clocks.cpp).
#include <gtest/gtest.h>

#include <sys/time.h>
#include <time.h>

#include <vector>

#include "engine/core/virtual_clock.hpp"
#include "unit_helpers.hpp"

using bspcheck::rt::VirtualClock;

TEST(VirtualClock, EveryCallCostsOneMicrosecondOnItsOwnClock) {
  VirtualClock c(3);
  c.call(0);
  c.call(0);
  c.call(2);
  EXPECT_DOUBLE_EQ(c.now(0), 2 * VirtualClock::kCallCost);
  EXPECT_DOUBLE_EQ(c.now(1), 0);
  EXPECT_DOUBLE_EQ(c.now(2), VirtualClock::kCallCost);
}

TEST(VirtualClock, ABarrierMovesEveryClockToTheLatestPlusGhPlusL) {
  VirtualClock c(3);
  c.advance(1, 0.5);
  c.advance(2, 0.25);
  c.barrier(1000);
  const double expected = 0.5 + VirtualClock::kByteCost * 1000 + VirtualClock::kBarrierCost;
  for (int pid = 0; pid < 3; ++pid) EXPECT_DOUBLE_EQ(c.now(pid), expected) << "process " << pid;
  c.barrier(0);
  EXPECT_DOUBLE_EQ(c.now(0), expected + VirtualClock::kBarrierCost);
}

// A barrier does not visit the processes: one that made no call since an earlier superstep
// still reads the latest barrier's time, and the latest clock is the one that advanced last,
// whichever superstep it was last set in.
TEST(VirtualClock, AProcessWithoutCallsReadsTheLatestBarriersTime) {
  VirtualClock c(3);
  c.advance(0, 1.0);
  c.barrier(0);
  const double first = 1.0 + VirtualClock::kBarrierCost;
  c.advance(1, 0.5);  // processes 0 and 2 make no call in this superstep
  EXPECT_DOUBLE_EQ(c.now(0), first);
  EXPECT_DOUBLE_EQ(c.now(1), first + 0.5);
  c.barrier(0);
  c.barrier(10);  // an empty superstep
  const double third = first + 0.5 + VirtualClock::kBarrierCost + VirtualClock::kByteCost * 10 + VirtualClock::kBarrierCost;
  for (int pid = 0; pid < 3; ++pid) EXPECT_DOUBLE_EQ(c.now(pid), third) << "process " << pid;
  c.call(2);
  EXPECT_DOUBLE_EQ(c.now(2), third + VirtualClock::kCallCost);
  EXPECT_DOUBLE_EQ(c.now(0), third);
}

TEST(VirtualClock, AdvanceReturnsTheAdvancedClock) {
  VirtualClock c(1);
  EXPECT_DOUBLE_EQ(c.advance(0, 1e-6), 1e-6);
  EXPECT_DOUBLE_EQ(c.advance(0, 1e-6), 2e-6);
  EXPECT_DOUBLE_EQ(c.now(0), 2e-6);
}

TEST(VirtualClock, TheTimeOfAProgramIsTheSameUnderEverySeed) {
  // The clock depends on calls and communication only: bsp_time at the end is seed-independent.
  std::vector<double> first;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    std::vector<double> t(3);
    ASSERT_TRUE(unit::run(3, seed, [&] {
                  bsp_begin(3);
                  int x = 0;
                  bsp_push_reg(&x, sizeof x);
                  bsp_sync();
                  bsp_put((bsp_pid() + 1) % 3, &x, &x, 0, sizeof x);
                  bsp_sync();
                  t[static_cast<std::size_t>(bsp_pid())] = bsp_time();
                  bsp_pop_reg(&x);
                  bsp_end();
                }).ok());
    if (first.empty()) first = t;
    EXPECT_EQ(t, first) << "seed " << seed;
  }
  EXPECT_GT(first[0], 2 * VirtualClock::kBarrierCost);
}

TEST(VirtualClock, TheCLibraryClocksReadItUnderVirtualTime) {
  bspcheck::Options o;
  o.procs = 2;
  o.virtual_time = true;
  std::vector<long long> seconds(2), micros(2);
  ASSERT_TRUE(bspcheck::run(o, [&] {
                bsp_begin(2);
                const auto pid = static_cast<std::size_t>(bsp_pid());
                seconds[pid] = static_cast<long long>(time(nullptr));
                timeval tv{};
                gettimeofday(&tv, nullptr);
                micros[pid] = static_cast<long long>(tv.tv_usec);
                bsp_end();
              }).ok());
  // A fixed epoch (2024-01-01) plus a virtual bsp_time of a few microseconds.
  for (std::size_t pid = 0; pid < 2; ++pid) {
    EXPECT_EQ(seconds[pid], 1704067200) << "process " << pid;
    EXPECT_GT(micros[pid], 0) << "process " << pid;
    EXPECT_LT(micros[pid], 100) << "process " << pid;
  }
}
