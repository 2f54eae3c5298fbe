// engine/core/local_sync.hpp through its own interface: processes of an in-process run call
// LocalSync directly (as cBSP and BSPk do), with predicates of the test's own: a wait that holds
// returns at once, a blocked process runs on once notified, each process keeps its own superstep,
// and when no process can go on the deadlock is one finding with the most specific stuck rule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bspcheck/rules.hpp"
#include "engine/core/local_sync.hpp"
#include "engine/core/world.hpp"
#include "unit_helpers.hpp"

using bspcheck::Rule;
using bspcheck::rt::LocalSync;
using bspcheck::rt::World;

namespace {

LocalSync& local_sync() { return World::current()->local_sync(); }

LocalSync::Wait wait_for(std::function<bool()> ready, std::string what, Rule rule = Rule::cbsp_sync_mismatch,
                         int priority = 0) {
  return LocalSync::Wait{std::move(ready), [what] { return what; }, rule, priority};
}

}  // namespace

TEST(LocalSync, AWaitThatHoldsReturnsAtOnce) {
  bool returned = false;
  const bspcheck::RunResult r = unit::run(2, 1, [&] {
    bsp_begin(2);
    if (bsp_pid() == 0) {
      local_sync().wait_until(wait_for([] { return true; }, "never blocks"));
      returned = true;
      EXPECT_FALSE(local_sync().waiting(0));
    }
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_TRUE(returned);
}

TEST(LocalSync, ABlockedProcessRunsOnOnceNotified) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    bool flag = false;
    std::vector<std::string> order;
    const bspcheck::RunResult r = unit::run(2, seed, [&] {
      bsp_begin(2);
      if (bsp_pid() == 0) {
        local_sync().wait_until(wait_for([&] { return flag; }, "waits for the flag"));
        order.push_back("0 runs on");
      } else {
        order.push_back("1 sets the flag");
        flag = true;
        local_sync().notify(0);
      }
      bsp_end();
    });
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.summary();
    EXPECT_EQ(order, (std::vector<std::string>{"1 sets the flag", "0 runs on"})) << "seed " << seed;
  }
}

TEST(LocalSync, EachProcessHasItsOwnSuperstep) {
  std::vector<long> seen(3, -1);
  ASSERT_TRUE(unit::run(3, 1, [&] {
                bsp_begin(3);
                const int me = bsp_pid();
                local_sync().set_superstep(me, 10 * me);
                bsp_sync();
                seen[static_cast<std::size_t>(me)] = local_sync().superstep(me);
                bsp_end();
              }).ok());
  EXPECT_EQ(seen, (std::vector<long>{0, 10, 20}));
}

TEST(LocalSync, ADeadlockIsOneFindingWithTheMostSpecificStuckRule) {
  const bspcheck::RunResult r = unit::run(3, 1, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    if (me == 0) local_sync().wait_until(wait_for([] { return false; }, "waits for a count", Rule::cbsp_sync_mismatch, 1));
    if (me == 1) local_sync().wait_until(wait_for([] { return false; }, "waits for data", Rule::bspk_count_mismatch, 2));
    bsp_sync();  // process 2
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.findings.size(), 1u) << r.summary();
  const bspcheck::Finding& f = r.findings[0];
  EXPECT_EQ(f.rule, bspcheck::rule_id(Rule::bspk_count_mismatch)) << "the higher priority";
  EXPECT_EQ(f.processes, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(f.locations.size(), 3u);
  for (const char* part : {"no process can go on:", "process 0 (superstep 0): waits for a count",
                           "process 1 (superstep 0): waits for data", "process 2 (superstep 0): waits in bsp_sync"})
    EXPECT_NE(f.message.find(part), std::string::npos) << part << " in: " << f.message;
}
