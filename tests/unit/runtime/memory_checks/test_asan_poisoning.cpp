// runtime/memory_checks/asan_poisoning.hpp on its own, with stand-ins for AddressSanitizer's poisoning
// functions (Poisoning::set_hooks): which bytes are poisoned and unpoisoned when, which region an
// address falls in, and what touching each kind of region is reported as.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/memory_checks/asan_poisoning.hpp"

using bspcheck::Rule;
using bspcheck::rt::PoisonedRegion;
using bspcheck::rt::Poisoning;

namespace {

struct Call {
  bool poison;
  std::uintptr_t addr;
  std::size_t size;
  bool operator==(const Call&) const = default;
};
std::vector<Call> g_calls;

void fake_poison(void const volatile* a, std::size_t n) {
  g_calls.push_back({true, reinterpret_cast<std::uintptr_t>(a), n});
}
void fake_unpoison(void const volatile* a, std::size_t n) {
  g_calls.push_back({false, reinterpret_cast<std::uintptr_t>(a), n});
}

// Every test runs with the stand-ins, in plain and sanitizer builds alike.
class PoisoningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls.clear();
    Poisoning::set_hooks({&fake_poison, &fake_unpoison});
  }
  void TearDown() override { Poisoning::set_hooks({}); }
};

PoisonedRegion region(std::uintptr_t lo, std::uintptr_t hi, Rule rule, int caller = 1) {
  return PoisonedRegion{lo, hi, rule, caller, 2, 3, {}, "bsp_hpput"};
}

}  // namespace

TEST_F(PoisoningTest, AvailableWithPoisoningFunctionsOnly) {
  EXPECT_TRUE(Poisoning::available());
  Poisoning::set_hooks({});
  // Back to AddressSanitizer's: present in the sanitizer build only.
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_TRUE(Poisoning::available());
#else
  EXPECT_FALSE(Poisoning::available());
#endif
}

TEST_F(PoisoningTest, RegionsArePoisonedFoundAndReleasedByRule) {
  {
    Poisoning p;
    p.poison(region(0x1000, 0x1010, Rule::hp_dst_read));
    p.poison(region(0x1008, 0x1020, Rule::get_dst_early_read));
    p.poison(region(0x2000, 0x2000, Rule::hpmove_stale));  // empty: ignored
    EXPECT_EQ(g_calls, (std::vector<Call>{{true, 0x1000, 0x10}, {true, 0x1008, 0x18}}));
    ASSERT_NE(p.find(0x1009), nullptr);
    EXPECT_EQ(p.find(0x1009)->rule, Rule::get_dst_early_read) << "the latest region first";
    EXPECT_EQ(p.find(0x1000)->rule, Rule::hp_dst_read);
    EXPECT_EQ(p.find(0x1020), nullptr) << "hi is past the region";

    g_calls.clear();
    p.release(Rule::hp_dst_read);
    // Unpoisoned, then the overlapping region of the other rule poisoned again.
    EXPECT_EQ(g_calls, (std::vector<Call>{{false, 0x1000, 0x10}, {true, 0x1008, 0x18}}));
    EXPECT_EQ(p.find(0x1000), nullptr);
    EXPECT_NE(p.find(0x1009), nullptr);
    g_calls.clear();
  }
  EXPECT_EQ(g_calls, (std::vector<Call>{{false, 0x1008, 0x18}})) << "the rest is unpoisoned when it goes";
}

TEST_F(PoisoningTest, ReleaseWithinForgetsTheRegionsStartingThere) {
  Poisoning p;
  p.poison(region(0x1000, 0x1004, Rule::hpmove_stale));
  p.poison(region(0x3000, 0x3004, Rule::hpmove_stale));
  g_calls.clear();
  p.release_within(0x0f00, 0x2000);
  EXPECT_EQ(g_calls, (std::vector<Call>{{false, 0x1000, 0x4}}));
  EXPECT_EQ(p.find(0x1000), nullptr);
  EXPECT_NE(p.find(0x3000), nullptr);
}

TEST_F(PoisoningTest, APrivateGlobalsRegionIsPoisonedOnlyWhileItsProcessRuns) {
  // One live address, two processes' copies: process 1's hpput destination and process 2's get
  // destination are the same global.
  PoisonedRegion of1 = region(0x4000, 0x4008, Rule::hp_dst_read);
  of1.private_to = 1;
  PoisonedRegion of2 = region(0x4000, 0x4004, Rule::get_dst_early_read);
  of2.private_to = 2;
  Poisoning p;
  p.poison(region(0x1000, 0x1004, Rule::hpmove_stale));  // shared memory: poisoned throughout
  p.poison(of1);
  p.poison(of2);
  EXPECT_EQ(g_calls, (std::vector<Call>{{true, 0x1000, 4}})) << "process 0 runs: neither is poisoned";
  EXPECT_EQ(p.find(0x4000), nullptr);
  EXPECT_NE(p.find(0x1000), nullptr);

  g_calls.clear();
  p.switch_process(1);
  EXPECT_EQ(g_calls, (std::vector<Call>{{true, 0x4000, 8}}));
  ASSERT_NE(p.find(0x4004), nullptr);
  EXPECT_EQ(p.find(0x4004)->rule, Rule::hp_dst_read) << "process 1's region, not process 2's";

  g_calls.clear();
  p.switch_process(2);
  EXPECT_EQ(g_calls, (std::vector<Call>{{false, 0x4000, 8}, {true, 0x4000, 4}})) << "1's lifted before 2's";
  EXPECT_EQ(p.find(0x4000)->rule, Rule::get_dst_early_read);
  EXPECT_EQ(p.find(0x4004), nullptr);

  g_calls.clear();
  p.switch_process(2);
  EXPECT_TRUE(g_calls.empty()) << "no switch, nothing to do";
  p.switch_process(0);
  EXPECT_EQ(g_calls, (std::vector<Call>{{false, 0x4000, 4}}));

  // Released while another process runs: its bytes are not poisoned, so nothing is unpoisoned.
  g_calls.clear();
  p.release(Rule::get_dst_early_read);
  EXPECT_EQ(g_calls, (std::vector<Call>{{true, 0x1000, 4}})) << "only the live region of another rule, again";
  g_calls.clear();
  p.switch_process(2);
  EXPECT_TRUE(g_calls.empty()) << "process 2's region is gone";
  p.release(Rule::hp_dst_read);
  p.release(Rule::hpmove_stale);
  g_calls.clear();
  p.switch_process(1);
  EXPECT_TRUE(g_calls.empty()) << "no private region left";
}

TEST_F(PoisoningTest, UnpoisonAndRepoisonGoStraightToTheFunctions) {
  int x = 0;
  Poisoning::unpoison(&x, sizeof x);
  Poisoning::repoison(&x, sizeof x);
  Poisoning::unpoison(&x, 0);  // nothing to do
  const auto a = reinterpret_cast<std::uintptr_t>(&x);
  EXPECT_EQ(g_calls, (std::vector<Call>{{false, a, sizeof x}, {true, a, sizeof x}}));
}

TEST(PoisonedAccess, EachRegionNamesItsRuleAndWhoseCallMadeIt) {
  const PoisonedRegion hp = region(0x1000, 0x1004, Rule::hp_dst_read, 1);
  const auto read = Poisoning::describe_access(&hp, 2, false, "bsp_sync");
  EXPECT_EQ(read.rule, Rule::hp_dst_read);
  EXPECT_EQ(read.message, "process 2 reads the destination of process 1's bsp_hpput (on process 2) during the "
                          "superstep; an unbuffered operation may land at any moment");
  const auto write = Poisoning::describe_access(&hp, 2, true, "bsp_sync");
  EXPECT_EQ(write.rule, Rule::hp_dst_conflict) << "writing an hp destination is the conflict rule";
  EXPECT_NE(write.message.find("process 2 writes the destination"), std::string::npos) << write.message;

  PoisonedRegion get = region(0x1000, 0x1004, Rule::get_dst_early_read, 0);
  get.call = "bsp_get";
  // Defined (BSPlib 3.3: the old contents), so the message says what was read instead of what was meant.
  EXPECT_EQ(Poisoning::describe_access(&get, 0, false, "bsp_get").message,
            "process 0 reads the destination of its bsp_get of superstep 3 before the bsp_sync that writes it: it "
            "sees the contents from before the bsp_get, not the value being fetched (defined, but rarely meant)");
  EXPECT_NE(Poisoning::describe_access(&get, 0, true, "bsp_get").message.find("the value written is lost"),
            std::string::npos);
  const PoisonedRegion stale = region(0x1000, 0x1004, Rule::hpmove_stale, 0);
  const auto moved = Poisoning::describe_access(&stale, 0, false, "bsp_hpmove");
  EXPECT_EQ(moved.rule, Rule::hpmove_stale);
  EXPECT_NE(moved.message.find("in superstep 3"), std::string::npos) << moved.message;

  const auto other = Poisoning::describe_access(nullptr, 4, true, "bsp_put");
  EXPECT_EQ(other.rule, Rule::crash);
  EXPECT_EQ(other.message, "AddressSanitizer stopped process 4 (its report is above); the last BSPlib call of the "
                           "process was bsp_put");
}
