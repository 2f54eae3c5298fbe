// engine/core/work_meter.hpp on its own: the CPU time of the process that has the processor is its
// work; a record takes it and starts again.
#include <gtest/gtest.h>

#include <cstdint>

#include "engine/core/work_meter.hpp"

using bspcheck::rt::WorkMeter;

namespace {

// Burns about `ns` of this thread's CPU time.
void burn(std::uint64_t ns) {
  const std::uint64_t until = WorkMeter::cpu_now_ns() + ns;
  volatile std::uint64_t x = 0;
  while (WorkMeter::cpu_now_ns() < until) x = x + 1;
}

}  // namespace

TEST(WorkMeter, TheRunningProcessGetsTheWorkAndARecordStartsAgain) {
  WorkMeter m(2, true);
  ASSERT_TRUE(m.on());
  burn(20'000'000);         // process 0 runs first
  m.switched(0, 1);
  const std::uint64_t one = m.take(1);  // process 1 has just got the processor
  m.switched(1, 0);
  const std::uint64_t zero = m.take(0);
  EXPECT_GE(zero, 20'000'000u);
  EXPECT_LT(one, zero);
  EXPECT_LT(m.take(0), zero) << "taken: counting starts again";
}

TEST(WorkMeter, AProcessThatLeftPassesTheProcessorOnWithoutWork) {
  WorkMeter m(2, true);
  m.switched(-1, 1);  // process 0 left; process 1 starts counting
  burn(5'000'000);
  EXPECT_GE(m.take(1), 5'000'000u);
  EXPECT_FALSE(WorkMeter(2, false).on());
}
