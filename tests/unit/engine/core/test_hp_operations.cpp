// engine/core/hp_operations.hpp on its own: pending unbuffered operations, taken in the scheduler's
// order, performed once, and all kept in the superstep's log.
#include <gtest/gtest.h>

#include "engine/core/hp_operations.hpp"

using bspcheck::checker::HpRecord;
using bspcheck::rt::HpOperations;

namespace {

HpRecord op(const int* src, int* dst) {
  return HpRecord{src, dst, sizeof(int), 0, 0, 1, {}, "bsp_hpput", 0, 0};
}

}  // namespace

TEST(HpOperations, EachPendingOperationIsTakenOnceAndLandsWhenPerformed) {
  HpOperations hp;
  const int a = 1, b = 2, c = 3;
  int da = 0, db = 0, dc = 0;
  hp.add(op(&a, &da));
  hp.add(op(&b, &db));
  hp.add(op(&c, &dc));
  EXPECT_EQ(hp.pending(), 3u);
  HpRecord& second = hp.take(1);
  EXPECT_EQ(second.dst, &db);
  EXPECT_EQ(db, 0) << "taken is not performed";
  HpOperations::perform(second);
  EXPECT_EQ(db, 2);
  EXPECT_TRUE(second.fired);
  EXPECT_EQ(hp.pending(), 2u);
  while (hp.any_pending()) HpOperations::perform(hp.take(0));
  EXPECT_EQ(da, 1);
  EXPECT_EQ(dc, 3);
  ASSERT_EQ(hp.log().size(), 3u) << "the log keeps every operation of the superstep";
  for (const HpRecord& r : hp.log()) EXPECT_TRUE(r.fired);
  EXPECT_EQ(hp.log()[1].dst, &db) << "in call order";
  hp.clear();
  EXPECT_TRUE(hp.log().empty());
}

TEST(HpOperations, PerformCopiesTheSourceAsItIsThen) {
  HpOperations hp;
  int src = 5, dst = 0;
  hp.add(op(&src, &dst));
  src = 6;  // unbuffered: the value when it lands, not at the call
  HpOperations::perform(hp.take(0));
  EXPECT_EQ(dst, 6);
}

// The barrier draws its choices first and prefetches the operations they will take: the order it
// predicts is the order take() then takes them in.
TEST(HpOperations, TakingOrderPredictsTheOperationsTakeTakes) {
  HpOperations hp;
  int src[6] = {0, 1, 2, 3, 4, 5}, dst[6] = {};
  for (int k = 0; k < 6; ++k) hp.add(op(&src[k], &dst[k]));
  const std::vector<std::uint32_t> picks = {4, 0, 3, 1, 1, 0};  // each below the number pending then
  const std::vector<std::size_t> order = hp.taking_order(picks);
  ASSERT_EQ(order.size(), picks.size());
  EXPECT_EQ(hp.pending(), 6u) << "predicting takes nothing";
  for (std::size_t k = 0; k < picks.size(); ++k) {
    const HpRecord& taken = hp.take(picks[k]);
    EXPECT_EQ(taken.dst, &dst[order[k]]) << "landing " << k;
  }
}
