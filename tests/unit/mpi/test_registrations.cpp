// Unit tests of mpi/registration/registrations: one rank's copy of the slots, as the sync plans
// and applies a superstep's pushes and pops (no MPI: the gathered entries are given here).
#include "mpi/registration/registrations.hpp"

#include <gtest/gtest.h>

namespace {

using bspcheck::mpi::CallSite;
using bspcheck::mpi::Registrations;

// Applies this rank's calls as if every other rank of `p` registered the same sizes at `other` +
// its rank (this rank's entries are its own, as the gather gives them).
void apply_same(Registrations& regs, int p, std::uint64_t other, int me = 0) {
  const Registrations::Plan plan = regs.plan();
  std::vector<Registrations::Entry> mine = regs.own_pushes(), gathered;
  for (int r = 0; r < p; ++r)
    for (const Registrations::Entry& e : mine) gathered.push_back({r == me || !e.addr ? e.addr : other + r, e.size});
  regs.apply(plan, gathered, {});
}

TEST(MpiRegistrations, APushIsUsableAfterTheSyncWithEveryRanksEntry) {
  int x = 0;
  Registrations regs(3, 1);
  regs.push(&x, sizeof x, CallSite{});
  EXPECT_EQ(regs.find(&x), -1);
  EXPECT_TRUE(regs.pushed_now(&x));
  apply_same(regs, 3, 1000, 1);
  const int slot = regs.find(&x);
  ASSERT_GE(slot, 0);
  EXPECT_FALSE(regs.pushed_now(&x));
  EXPECT_EQ(regs.entry(slot, 2).addr, 1002u);
  EXPECT_EQ(regs.entry(slot, 0).size, static_cast<std::int64_t>(sizeof x));
}

TEST(MpiRegistrations, PopsNameTheMostRecentSlotAndTakeEffectAtTheSync) {
  int x = 0;
  Registrations regs(2, 0);
  regs.push(&x, 4, CallSite{});
  apply_same(regs, 2, 100);
  const int older = regs.find(&x);
  regs.push(&x, 8, CallSite{});
  apply_same(regs, 2, 200);
  const int newer = regs.find(&x);
  EXPECT_NE(older, newer);
  regs.pop(&x, CallSite{});
  EXPECT_EQ(regs.find(&x), newer);  // until the sync
  const Registrations::Plan plan = regs.plan();
  ASSERT_EQ(plan.pop_slots.size(), 1u);
  EXPECT_EQ(plan.pop_slots[0], newer);
  regs.apply(plan, {}, {});
  EXPECT_EQ(regs.find(&x), older);
}

TEST(MpiRegistrations, PushThenPopInOneSuperstepRemovesTheNewSlotInProgramOrder) {
  int x = 0;
  Registrations regs(1, 0);
  regs.push(&x, 4, CallSite{});
  apply_same(regs, 1, 100);
  const int old_slot = regs.find(&x);
  regs.push(&x, 8, CallSite{});
  regs.pop(&x, CallSite{});
  const Registrations::Plan plan = regs.plan();
  EXPECT_NE(plan.pop_slots[0], old_slot);  // the pop names the push before it
  apply_same(regs, 1, 100);
  EXPECT_EQ(regs.find(&x), old_slot);
}

TEST(MpiRegistrations, AnUnknownPopPlansNoSlotAndTheDigestSaysWhichSlotsArePopped) {
  int x = 0, y = 0;
  Registrations a(2, 0), b(2, 1);
  for (Registrations* r : {&a, &b}) {
    r->push(&x, 4, CallSite{});
    r->push(&y, 4, CallSite{});
    apply_same(*r, 2, 100, r == &a ? 0 : 1);
  }
  a.pop(&x, CallSite{});
  b.pop(&y, CallSite{});  // another slot: the digests differ
  EXPECT_NE(a.plan().digest, b.plan().digest);
  Registrations c(2, 0);
  c.pop(&x, CallSite{});
  EXPECT_EQ(c.plan().pop_slots, std::vector<int>{-1});
}

TEST(MpiRegistrations, ASkippedPopLeavesItsSlot) {
  int x = 0;
  Registrations regs(1, 0);
  regs.push(&x, 4, CallSite{});
  apply_same(regs, 1, 100);
  const int slot = regs.find(&x);
  regs.pop(&x, CallSite{});
  regs.apply(regs.plan(), {}, {true});
  EXPECT_EQ(regs.find(&x), slot);
}

}  // namespace
