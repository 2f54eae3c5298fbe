// engine/core/barrier.hpp on its own: the order of a barrier's exchange (BSPlib 3.3): pending hp
// operations land first, in the scheduler's order; then get sources are read; the checker sees
// the writes; get data lands before put data.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "bspcheck/rules.hpp"
#include "checker/checker.hpp"
#include "checker/diagnostics.hpp"
#include "engine/core/barrier.hpp"

using bspcheck::checker::HpRecord;
using bspcheck::rt::Barrier;
using bspcheck::rt::ChoiceKind;
using bspcheck::rt::DrmaBuffer;
using bspcheck::rt::HpOperations;

namespace {

// Answers every choice with `answer` (or the last option when there are fewer); counts draws.
class FixedScheduler final : public bspcheck::rt::Scheduler {
 public:
  explicit FixedScheduler(std::uint32_t answer) : answer_(answer) {}
  int next_process(const bspcheck::rt::RunnableSet&, int current) override { return current; }
  std::uint32_t choose(ChoiceKind kind, std::uint32_t n) override {
    ++draws[kind];
    return answer_ < n ? answer_ : n - 1;
  }
  std::map<ChoiceKind, int> draws;

 private:
  std::uint32_t answer_;
};

HpRecord hpput(const int* src, int* dst, int caller = 0) {
  return HpRecord{src, dst, sizeof(int), caller, caller, 1, {}, "bsp_hpput",
                  bspcheck::rt::content_hash(src, sizeof(int)), bspcheck::rt::content_hash(dst, sizeof(int))};
}

// The World's part: perform the pending operation the barrier drew.
auto firing(HpOperations& hp, int& fired) {
  return [&hp, &fired](std::size_t i) {
    HpOperations::fire(hp.take(i), nullptr, 0, false);
    ++fired;
  };
}

}  // namespace

TEST(Barrier, GetDataLandsBeforePutData) {
  HpOperations hp;
  DrmaBuffer drma;
  FixedScheduler sched(0);
  int x = 0;
  const int remote = 7, put_value = 9;
  drma.put(&x, &put_value, sizeof x, 1, 0, {}, "bsp_put");  // issued first,
  drma.get(&remote, &x, sizeof x, 0, 1, {});                 // yet the get's data lands first
  int fired = 0;
  Barrier(hp, drma, sched, nullptr).exchange(0, firing(hp, fired));
  EXPECT_EQ(x, 9) << "the put's data lands last (BSPlib 3.3)";
  EXPECT_EQ(fired, 0);
  EXPECT_TRUE(drma.empty());
}

TEST(Barrier, PendingHpOperationsLandBeforeGetSourcesAreRead) {
  HpOperations hp;
  DrmaBuffer drma;
  FixedScheduler sched(0);
  const int a = 5;
  int b = 0, c = 0;
  hp.add(hpput(&a, &b));
  drma.get(&b, &c, sizeof c, 0, 1, {});  // reads b, the hpput's destination
  int fired = 0;
  Barrier(hp, drma, sched, nullptr).exchange(0, firing(hp, fired));
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(b, 5);
  EXPECT_EQ(c, 5) << "the get read its source after the hpput landed";
  EXPECT_FALSE(hp.any_pending());
  EXPECT_TRUE(hp.log().empty()) << "a new superstep's log";
}

TEST(Barrier, PendingHpOperationsLandInTheSchedulersOrder) {
  for (const std::uint32_t answer : {0u, 1u}) {
    HpOperations hp;
    DrmaBuffer drma;
    FixedScheduler sched(answer);
    const int one = 1, two = 2;
    int dst = 0;
    hp.add(hpput(&one, &dst));
    hp.add(hpput(&two, &dst));
    int fired = 0;
    Barrier(hp, drma, sched, nullptr).exchange(0, firing(hp, fired));
    EXPECT_EQ(fired, 2);
    EXPECT_EQ(sched.draws[ChoiceKind::hp_timing], 2) << "one draw per pending operation";
    // Drawing 0 performs the first pending one first (the second lands last); drawing 1, the
    // second first.
    EXPECT_EQ(dst, answer == 0 ? 2 : 1) << "answer " << answer;
  }
}

TEST(Barrier, TheCheckerSeesTheOperationsAndTheWritesBeforeTheyLand) {
  bspcheck::checker::Diagnostics diag;
  bspcheck::checker::Checker checker(diag);
  HpOperations hp;
  DrmaBuffer drma;
  FixedScheduler sched(0);
  int src = 1, hp_dst = 0, x = 0;
  hp.add(hpput(&src, &hp_dst));
  src = 2;  // the source changes between the hpput and the barrier
  const int one = 1, two = 2;
  drma.put(&x, &one, sizeof x, 1, 0, {}, "bsp_put");
  drma.put(&x, &two, sizeof x, 2, 0, {}, "bsp_put");  // different data to the same bytes
  int fired = 0;
  Barrier(hp, drma, sched, &checker).exchange(3, firing(hp, fired));
  std::vector<std::string> rules;
  for (const bspcheck::Finding& f : diag.findings()) {
    rules.push_back(f.rule);
    EXPECT_EQ(f.superstep, 3);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{bspcheck::rule_id(bspcheck::Rule::hp_src_modified),
                                             bspcheck::rule_id(bspcheck::Rule::put_collision)}));
  EXPECT_EQ(hp_dst, 2) << "unbuffered: the source as it is when it lands";
  EXPECT_TRUE(x == 1 || x == 2);
}
