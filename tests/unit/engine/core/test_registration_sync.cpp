// engine/core/registration_sync.hpp on its own: a superstep's pushes and pops applied at the barrier,
// and the findings when processes disagree.
#include <gtest/gtest.h>

#include <vector>

#include "engine/core/registration_sync.hpp"

using namespace bspcheck::rt;

namespace {

ProcessTable processes(int p) {
  ProcessTable procs(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) procs[static_cast<std::size_t>(i)].pid = i;
  return procs;
}

}  // namespace

TEST(RegistrationSync, TheKthPushesOfAllProcessesFormOneSlot) {
  ProcessTable procs = processes(2);
  RegistrationTable regs(2);
  bspcheck::checker::Diagnostics diag;
  int a0 = 0, a1 = 0, b0 = 0, b1 = 0;
  procs[0].pushes = {{&a0, 4, {}}, {&b0, 8, {}}};
  procs[1].pushes = {{&a1, 4, {}}, {&b1, 8, {}}};
  ASSERT_TRUE(apply_registration_calls(procs, regs, diag, nullptr, 0));
  EXPECT_EQ(regs.live_slots(), 2u);
  const int slot = regs.find(0, &b0);
  ASSERT_GE(slot, 0);
  EXPECT_EQ(regs.entry(slot, 1).addr, &b1) << "process 1's second push is in the slot of process 0's second";
  EXPECT_TRUE(procs[0].pushes.empty()) << "applied calls are cleared";
  EXPECT_TRUE(diag.findings().empty());
}

TEST(RegistrationSync, DifferentNumbersOfPushesStopTheRun) {
  ProcessTable procs = processes(2);
  RegistrationTable regs(2);
  bspcheck::checker::Diagnostics diag;
  int a = 0;
  procs[0].pushes = {{&a, 4, {}}};
  EXPECT_FALSE(apply_registration_calls(procs, regs, diag, nullptr, 3));
  ASSERT_EQ(diag.findings().size(), 1u);
  EXPECT_EQ(diag.findings()[0].rule, "reg-count-mismatch");
  EXPECT_EQ(diag.findings()[0].superstep, 3);
}

TEST(RegistrationSync, APopMustNameTheSameSlotOnEveryProcess) {
  ProcessTable procs = processes(2);
  RegistrationTable regs(2);
  bspcheck::checker::Diagnostics diag;
  int a0 = 0, a1 = 0, b0 = 0, b1 = 0;
  procs[0].pushes = {{&a0, 4, {}}, {&b0, 4, {}}};
  procs[1].pushes = {{&a1, 4, {}}, {&b1, 4, {}}};
  ASSERT_TRUE(apply_registration_calls(procs, regs, diag, nullptr, 0));
  procs[0].pops = {{&a0, {}, 0}};
  procs[1].pops = {{&b1, {}, 0}};  // another slot
  ASSERT_TRUE(apply_registration_calls(procs, regs, diag, nullptr, 1));
  ASSERT_EQ(diag.findings().size(), 1u);
  EXPECT_EQ(diag.findings()[0].rule, "reg-pop-mismatch");
  EXPECT_EQ(regs.live_slots(), 2u) << "a mismatched pop removes nothing";
  int stranger = 0;
  procs[0].pops = {{&stranger, {}, 0}};
  procs[1].pops = {{&a1, {}, 0}};
  ASSERT_TRUE(apply_registration_calls(procs, regs, diag, nullptr, 2));
  EXPECT_EQ(diag.findings().back().rule, "reg-pop-unknown");
  procs[0].pops = {{&a0, {}, 0}};
  procs[1].pops = {{&a1, {}, 0}};
  ASSERT_TRUE(apply_registration_calls(procs, regs, diag, nullptr, 3));
  EXPECT_EQ(regs.live_slots(), 1u);
  EXPECT_EQ(regs.find(0, &a0), -1);
}
