// engine/core/drma_buffer.hpp on its own: when buffered puts and gets read and write, and in what
// order, with a scripted scheduler.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/core/drma_buffer.hpp"

using bspcheck::rt::ChoiceKind;
using bspcheck::rt::DrmaBuffer;
using bspcheck::rt::Site;

namespace {

class FixedScheduler final : public bspcheck::rt::Scheduler {
 public:
  FixedScheduler(std::uint32_t answer, bool exploring) : answer_(answer), exploring_(exploring) {}
  int next_process(const bspcheck::rt::RunnableSet&, int current) override { return current; }
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override {
    EXPECT_EQ(kind, ChoiceKind::write_order);
    ++draws;
    return answer_ < n ? answer_ : n - 1;
  }
  bool exploring() const override { return exploring_; }
  int draws = 0;

 private:
  std::uint32_t answer_;
  bool exploring_;
};

}  // namespace

TEST(DrmaBuffer, PutsCopyTheSourceAtTheCallAndWriteAtTheBarrier) {
  DrmaBuffer b;
  FixedScheduler keep_order(99, false);
  int src = 5, dst = 0;
  b.put(&dst, &src, sizeof src, 0, 1, Site{}, "bsp_put");
  src = 6;
  EXPECT_EQ(dst, 0) << "nothing lands before the barrier";
  b.read_get_sources();
  b.land(keep_order);
  EXPECT_EQ(dst, 5) << "buffered on source: the value at the call";
  EXPECT_TRUE(b.empty());
}

TEST(DrmaBuffer, GetsReadAtTheBarrierAndLandBeforePuts) {
  DrmaBuffer b;
  FixedScheduler keep_order(99, false);
  int remote = 1, x = 0;
  b.get(&remote, &x, sizeof x, 0, 1, Site{});
  const int put_value = 7;
  b.put(&x, &put_value, sizeof put_value, 1, 0, Site{}, "bsp_put");
  remote = 2;  // still computing: the get reads at the barrier
  b.read_get_sources();
  remote = 3;  // after the barrier's read
  const auto writes = b.writes();
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_STREQ(writes[0].call, "bsp_get") << "gets first";
  int got = 0;
  std::memcpy(&got, writes.bytes(writes[0]), sizeof got);
  EXPECT_EQ(got, 2) << "the get's bytes, as read at the barrier";
  std::memcpy(&got, writes.bytes(writes[1]), sizeof got);
  EXPECT_EQ(got, 7) << "the put's bytes, as copied at the call";
  b.land(keep_order);
  EXPECT_EQ(x, 7) << "the put lands after the get (BSPlib 3.3)";
  int y = 0;
  b.get(&remote, &y, sizeof y, 0, 1, Site{});
  b.read_get_sources();
  b.land(keep_order);
  EXPECT_EQ(y, 3);
}

TEST(DrmaBuffer, TheSchedulerPicksTheWinnerOfOverlappingPuts) {
  for (std::uint32_t answer : {0u, 1u}) {
    DrmaBuffer b;
    FixedScheduler s(answer, false);
    int dst = 0;
    const int a = 1, c = 2;
    b.put(&dst, &a, sizeof a, 0, 2, Site{}, "bsp_put");
    b.put(&dst, &c, sizeof c, 1, 2, Site{}, "bsp_put");
    b.read_get_sources();
    b.land(s);
    EXPECT_EQ(dst, answer == 0 ? 1 : 2) << "the last written wins; answer " << answer;
  }
}

TEST(DrmaBuffer, ExploringDrawsOnlyForVisibleCollisions) {
  DrmaBuffer b;
  FixedScheduler s(0, true);
  int d1 = 0, d2 = 0;
  const int one = 1, same = 1;
  b.put(&d1, &one, sizeof one, 0, 2, Site{}, "bsp_put");
  b.put(&d2, &one, sizeof one, 1, 2, Site{}, "bsp_put");   // no overlap
  b.put(&d1, &same, sizeof same, 1, 2, Site{}, "bsp_put");  // overlap, same bytes
  b.read_get_sources();
  b.land(s);
  EXPECT_EQ(s.draws, 0);
  const int other = 9;
  b.put(&d1, &one, sizeof one, 0, 2, Site{}, "bsp_put");
  b.put(&d1, &other, sizeof other, 1, 2, Site{}, "bsp_put");
  b.read_get_sources();
  b.land(s);
  EXPECT_EQ(s.draws, 1);
}
