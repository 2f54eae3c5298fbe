// engine/core/h_relation.hpp on its own: the h-relation of a superstep from its transfers.
#include <gtest/gtest.h>

#include "engine/core/h_relation.hpp"

using bspcheck::rt::HRelation;

TEST(HRelation, HIsTheLargestOfWhatAProcessSendsOrReceives) {
  HRelation h(3);
  h.transfer(0, 1, 100);  // process 0 sends 100 + 50, process 1 receives 100 + 70
  h.transfer(0, 2, 50);
  h.transfer(2, 1, 70);
  const bspcheck::SuperstepStats s = h.end_superstep();
  EXPECT_EQ(s.h_bytes, 170u);
  EXPECT_EQ(s.h_messages, 2u);
  EXPECT_EQ(s.total_bytes, 220u);
  EXPECT_EQ(s.total_operations, 3u);
}

TEST(HRelation, ASelfTransferCountsOnBothSidesAndEachSuperstepStartsAfresh) {
  HRelation h(2, true);
  h.transfer(1, 1, 8);
  const bspcheck::SuperstepStats first = h.end_superstep();
  EXPECT_EQ(first.h_bytes, 8u);
  EXPECT_EQ(first.total_bytes, 8u);
  const bspcheck::SuperstepStats second = h.end_superstep();
  EXPECT_EQ(second.h_bytes, 0u);
  EXPECT_EQ(second.total_operations, 0u);
  ASSERT_EQ(h.stats().size(), 2u);
  EXPECT_EQ(h.stats()[0].h_bytes, 8u);
}

// Only the processes that communicated in a superstep are summed and reset at its end: a
// receiver's counts must be reset too, or they would leak into the next superstep.
TEST(HRelation, AReceiversCountsDoNotLeakIntoTheNextSuperstep) {
  HRelation h(3);
  h.transfer(0, 2, 100);
  EXPECT_EQ(h.end_superstep().h_bytes, 100u);
  h.transfer(1, 2, 1);
  const bspcheck::SuperstepStats second = h.end_superstep();
  EXPECT_EQ(second.h_bytes, 1u);
  EXPECT_EQ(second.total_bytes, 1u);
  EXPECT_EQ(h.end_superstep().h_messages, 0u);
}

// A program's run keeps no history (the in-process API asks for it): its memory must not grow
// with its supersteps.
TEST(HRelation, WithoutHistoryNothingIsKeptPerSuperstep) {
  HRelation h(2);
  for (int i = 0; i < 1000; ++i) {
    h.transfer(0, 1, 4);
    EXPECT_EQ(h.end_superstep().h_bytes, 4u);
  }
  EXPECT_TRUE(h.stats().empty());
}
