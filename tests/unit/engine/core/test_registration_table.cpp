// engine/core/registration_table.hpp on its own: the registration slots of BSPlib 3.1.
#include <gtest/gtest.h>

#include <vector>

#include "engine/core/registration_table.hpp"

using bspcheck::rt::RegistrationTable;

TEST(RegistrationTable, AnAddressNamesTheMostRecentLiveSlotHoldingIt) {
  RegistrationTable t(2);
  int x = 0, y = 0;
  const int s0 = t.add({{&x, 4, {}}, {&y, 8, {}}});
  const int s1 = t.add({{&x, 16, {}}, {nullptr, 0, {}}});
  EXPECT_EQ(t.find(0, &x), s1) << "the newest registration of x wins";
  EXPECT_EQ(t.find(1, &y), s0);
  EXPECT_EQ(t.find(1, nullptr), -1) << "NULL is never found";
  EXPECT_EQ(t.entry(s1, 0).size, 16);
  EXPECT_EQ(t.entry(s0, 1).size, 8) << "sizes may differ per process";
  t.remove(s1);
  EXPECT_EQ(t.find(0, &x), s0) << "removing the newest uncovers the older slot";
  EXPECT_EQ(t.live_slots(), 1u);
  EXPECT_EQ(t.live_slot_ids(), (std::vector<int>{s0}));
}

TEST(RegistrationTable, RemovingAnOlderSlotKeepsTheNewer) {
  RegistrationTable t(1);
  int x = 0;
  const int s0 = t.add({{&x, 4, {}}});
  const int s1 = t.add({{&x, 8, {}}});
  t.remove(s0);  // pops may name any live slot, in any order
  EXPECT_EQ(t.find(0, &x), s1);
  t.remove(s1);
  EXPECT_EQ(t.find(0, &x), -1);
  EXPECT_EQ(t.live_slots(), 0u);
}
