// runtime/memory_checks/watchpoints.hpp with the real debug registers, and asan_poisoning's use of them for the
// last bytes of a region that ASan cannot poison: the program's reads and writes of watched bytes
// are caught, other bytes of the granule are not, and a watch follows its region (released,
// suspended while the runtime writes, enabled only while a private region's process runs).
//
// perf_event_open may be refused in a container (seccomp, perf_event_paranoid = 3): then these
// tests skip, unless BSPCHECK_REQUIRE_WATCHPOINTS is set (the project's CI sets it).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "runtime/memory_checks/asan_poisoning.hpp"
#include "runtime/memory_checks/watchpoints.hpp"

using bspcheck::Rule;
using bspcheck::rt::PoisonedRegion;
using bspcheck::rt::Poisoning;
using bspcheck::rt::Watchpoints;

namespace {

struct Access {
  std::uintptr_t addr;
  bool is_write;
  bool operator==(const Access&) const = default;
};
std::vector<Access> g_accesses;

void record(std::uintptr_t addr, bool is_write) { g_accesses.push_back({addr, is_write}); }

// An array whose first element shares its granule with the second, as `int a[3]` does.
alignas(8) volatile int g_array[4];

std::uintptr_t at(int i) { return reinterpret_cast<std::uintptr_t>(&g_array[i]); }

// Out of line, and fenced: the handler changes what the test reads next, unknown to the compiler.
__attribute__((noinline)) int read(int i) {
  const int v = g_array[i];
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return v;
}
__attribute__((noinline)) void store(int i, int v) {
  g_array[i] = v;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

class WatchpointsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Watchpoints::available()) {
      if (std::getenv("BSPCHECK_REQUIRE_WATCHPOINTS")) FAIL() << "perf_event_open refused a hardware watchpoint";
      GTEST_SKIP() << "this kernel or container refuses perf_event_open's hardware watchpoints";
    }
    g_accesses.clear();
    for (auto& x : g_array) x = 0;
  }
  void TearDown() override { Watchpoints::set_handler(nullptr); }
};

// Poisoning with stand-ins that poison nothing and say every byte is addressable: every region
// ending inside a granule gets a watch.
void no_op(void const volatile*, std::size_t) {}
int never_poisoned(void const volatile*) { return 0; }

class WatchedPoisoningTest : public WatchpointsTest {
 protected:
  void SetUp() override {
    WatchpointsTest::SetUp();
    if (IsSkipped() || HasFailure()) return;
    Poisoning::set_hooks({&no_op, &no_op, &never_poisoned});
    Poisoning::set_reporter([this](const PoisonedRegion* r, std::uintptr_t addr, bool is_write, bool trapped) {
      EXPECT_TRUE(trapped) << "reported from the watchpoint's trap";
      reports.push_back({r ? r->rule : Rule::crash, addr, is_write});
    });
  }
  void TearDown() override {
    Poisoning::set_reporter(nullptr);
    Poisoning::set_hooks({});
  }
  struct Report {
    Rule rule;
    std::uintptr_t addr;
    bool is_write;
    bool operator==(const Report&) const = default;
  };
  std::vector<Report> reports;
};

PoisonedRegion get_destination(int first, int last, int private_to = -1) {
  return PoisonedRegion{at(first), at(last) + sizeof(int), Rule::get_dst_early_read, 0, 0, 1, {}, "bsp_get",
                        private_to};
}

}  // namespace

TEST_F(WatchpointsTest, AReadOfAWatchedByteIsCaughtOnceAndItsNeighbourIsNot) {
  Watchpoints::set_handler(&record);
  const int id = Watchpoints::watch(at(0), at(1), true);
  ASSERT_GE(id, 0);
  EXPECT_EQ(read(1) + read(2), 0);
  EXPECT_TRUE(g_accesses.empty()) << "the other half of the granule is not watched";
  EXPECT_EQ(read(0), 0);
  EXPECT_EQ(g_accesses, (std::vector<Access>{{at(0), false}}));
  EXPECT_EQ(read(0), 0);
  EXPECT_EQ(g_accesses.size(), 1u) << "reported once: the watch is off after it fired";
  Watchpoints::remove(id);
}

TEST_F(WatchpointsTest, AWriteIsToldFromAReadByTheBytesChanging) {
  Watchpoints::set_handler(&record);
  const int id = Watchpoints::watch(at(0), at(0) + 3, true);  // 3 bytes: pieces of 2 and 1
  ASSERT_GE(id, 0);
  store(0, 7);
  ASSERT_EQ(g_accesses.size(), 1u);
  EXPECT_TRUE(g_accesses[0].is_write);
  EXPECT_GE(g_accesses[0].addr, at(0)) << "the address of the piece that fired";
  EXPECT_LT(g_accesses[0].addr, at(0) + 3);
  Watchpoints::remove(id);
}

TEST_F(WatchpointsTest, ADisabledOrSuspendedWatchSeesNothingAndFourRegistersAreAll) {
  Watchpoints::set_handler(&record);
  const int id = Watchpoints::watch(at(0), at(1), false);
  ASSERT_GE(id, 0);
  EXPECT_EQ(read(0), 0);
  EXPECT_TRUE(g_accesses.empty()) << "created disabled";
  Watchpoints::set_enabled(id, true);
  Watchpoints::suspend_within(at(0), at(1));
  store(0, 1);
  EXPECT_TRUE(g_accesses.empty()) << "suspended while the runtime writes";
  Watchpoints::resume_within(at(0), at(1));
  EXPECT_EQ(read(0), 1);
  EXPECT_EQ(g_accesses, (std::vector<Access>{{at(0), false}})) << "resumed with the new bytes: a read";

  // 7 bytes take three registers; with one already taken, a second watch finds none free.
  const int first = Watchpoints::watch(at(2), at(2) + 7, true);
  std::vector<int> more;
  for (int i = 0; i < 4; ++i) more.push_back(Watchpoints::watch(at(3) + static_cast<unsigned>(i), at(3) + i + 1, true));
  EXPECT_GE(first, 0);
  EXPECT_EQ(more[0], -1) << "four registers: the 7-byte watch's three and the first watch's one";
  Watchpoints::remove(id);
  Watchpoints::remove(first);
  const int after = Watchpoints::watch(at(3), at(3) + 1, true);
  EXPECT_GE(after, 0) << "removing gives the registers back";
  Watchpoints::remove(after);
}

TEST_F(WatchedPoisoningTest, TheUnpoisonableEndOfARegionIsWatchedUntilItsRegionGoes) {
  {
    Poisoning p;
    p.poison(get_destination(0, 0));
    EXPECT_EQ(read(1), 0);
    EXPECT_TRUE(reports.empty());
    EXPECT_EQ(read(0), 0);
    EXPECT_EQ(reports, (std::vector<Report>{{Rule::get_dst_early_read, at(0), false}}));

    reports.clear();
    p.poison(get_destination(2, 2));
    p.release(Rule::get_dst_early_read);
    EXPECT_EQ(read(2), 0);
    EXPECT_TRUE(reports.empty()) << "released with its region";

    // An aligned end needs no watch (ASan poisons the whole granule); the runtime's own write
    // between unpoison and repoison is not the program's.
    p.poison(get_destination(0, 1));
    EXPECT_EQ(read(0) + read(1), 0);
    EXPECT_TRUE(reports.empty());
    p.poison(get_destination(2, 2));
    Poisoning::unpoison(const_cast<int*>(&g_array[2]), sizeof(int));
    store(2, 5);
    Poisoning::repoison(const_cast<int*>(&g_array[2]), sizeof(int));
    EXPECT_TRUE(reports.empty());
    EXPECT_EQ(read(2), 5);
    EXPECT_EQ(reports, (std::vector<Report>{{Rule::get_dst_early_read, at(2), false}}));
  }
  reports.clear();
  EXPECT_EQ(read(2), 5);
  EXPECT_TRUE(reports.empty()) << "the registry's end removes its watches";
}

TEST_F(WatchedPoisoningTest, APrivateRegionIsWatchedOnlyWhileItsProcessRuns) {
  Poisoning p;
  p.poison(get_destination(0, 0, 1));
  EXPECT_EQ(read(0), 0);
  EXPECT_TRUE(reports.empty()) << "process 0 runs, the region is process 1's";
  p.leave_process();
  p.switch_process(1);
  EXPECT_EQ(read(1), 0);
  EXPECT_TRUE(reports.empty());
  store(0, 3);
  EXPECT_EQ(reports, (std::vector<Report>{{Rule::get_dst_early_read, at(0), true}}));
  reports.clear();
  p.switch_process(0);
  p.switch_process(1);
  EXPECT_EQ(read(0), 3);
  EXPECT_TRUE(reports.empty()) << "a watch that fired stays off";
}
