// runtime/memory_checks/watchpoints.hpp with the real debug registers, and asan_poisoning's use of them for the
// last bytes of a region that ASan cannot poison: the program's reads and writes of watched bytes
// are caught, other bytes of the granule are not, and a watch follows its region (released,
// suspended while the runtime writes, enabled only while a private region's process runs).
//
// The tests take the probe's answer (runtime/memory_checks/watchpoint_probe.hpp), so that each asserts something
// on every machine: where a watchpoint was seen to fire, what watches catch; where none fires (a
// container refuses perf_event_open, a hypervisor keeps the debug registers), that nothing is
// watched and the poisoning counts the ends it left unchecked, which the run's report then says.
// CTest runs them a second time with BSPCHECK_SIMULATE_SILENT_WATCHPOINTS=1, so that machines
// whose watchpoints work test the fallback too.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/memory_checks/asan_poisoning.hpp"
#include "runtime/memory_checks/watchpoint_probe.hpp"
#include "runtime/memory_checks/watchpoints.hpp"

using bspcheck::Rule;
using bspcheck::rt::Caught;
using bspcheck::rt::PoisonedRegion;
using bspcheck::rt::Poisoning;
using bspcheck::rt::probe_watchpoints;
using bspcheck::rt::WatchpointProbe;
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

PoisonedRegion get_destination(int first, int last, int private_to = -1) {
  return PoisonedRegion{at(first), at(last) + sizeof(int), Rule::get_dst_early_read, 0, 0, 1, {}, "bsp_get",
                        private_to};
}

class WatchpointsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_accesses.clear();
    for (auto& x : g_array) x = 0;
  }
  void TearDown() override { Watchpoints::set_handler(nullptr); }

  // Where the probe saw no watchpoint fire, none is armed: a watch is refused, and touching the
  // bytes it would have watched goes unseen (instead of a watch that silently never fires).
  static void expect_no_watch() {
    EXPECT_FALSE(probe_watchpoints().fires());
    Watchpoints::set_handler(&record);
    EXPECT_EQ(Watchpoints::watch(at(0), at(1), true), -1);
    EXPECT_EQ(read(0), 0);
    store(0, 1);
    EXPECT_TRUE(g_accesses.empty());
  }
};

// Poisoning with stand-ins that poison nothing and say every byte is addressable: every region
// ending inside a granule gets a watch.
void no_op(void const volatile*, std::size_t) {}
int never_poisoned(void const volatile*) { return 0; }

class WatchedPoisoningTest : public WatchpointsTest {
 protected:
  void SetUp() override {
    WatchpointsTest::SetUp();
    Poisoning::set_hooks({&no_op, &no_op, &never_poisoned});
    Poisoning::set_reporter([this](const PoisonedRegion* r, std::uintptr_t addr, bool is_write, Caught how) {
      EXPECT_EQ(how, Caught::watchpoint) << "reported from the watchpoint's trap";
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

  // Where no watchpoint fires: the unpoisonable end is not watched, the access to it is not
  // reported, and the poisoning counts it among the ends it left unchecked.
  void expect_end_left_unchecked() {
    EXPECT_FALSE(probe_watchpoints().fires());
    Poisoning p;
    p.poison(get_destination(0, 0));
    p.poison(get_destination(2, 3));  // ends on a granule boundary: poisoned whole, nothing to watch
    EXPECT_EQ(read(0), 0);
    EXPECT_TRUE(reports.empty());
    EXPECT_EQ(p.unwatched(), 1u) << "the end of the first destination only";
  }
};

}  // namespace

TEST_F(WatchpointsTest, AReadOfAWatchedByteIsCaughtOnceAndItsNeighbourIsNot) {
  if (!Watchpoints::available()) return expect_no_watch();
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
  if (!Watchpoints::available()) return expect_no_watch();
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
  if (!Watchpoints::available()) return expect_no_watch();
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
  if (!Watchpoints::available()) return expect_end_left_unchecked();
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
  if (!Watchpoints::available()) return expect_end_left_unchecked();
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

TEST_F(WatchedPoisoningTest, AWatchedEndIsNotCountedAsUnchecked) {
  if (!Watchpoints::available()) return expect_end_left_unchecked();
  Poisoning p;
  p.poison(get_destination(0, 0));
  EXPECT_EQ(p.unwatched(), 0u);
}

// The variable that simulates a machine whose watchpoints open but never fire makes the probe
// answer "silent" (the fallback's tests above then run on any machine). Without it, the probe's
// answer is whatever this machine gives, and available() follows it.
TEST(WatchpointProbeTest, TheSimulatingVariableMakesTheProbeSeeASilentMachine) {
  const char* simulate = std::getenv("BSPCHECK_SIMULATE_SILENT_WATCHPOINTS");
  const WatchpointProbe& probe = probe_watchpoints();
  if (simulate && std::string(simulate) == "1") {  // silent, or refused where the open fails anyway
    EXPECT_FALSE(probe.fires()) << probe.describe();
  }
  EXPECT_EQ(Watchpoints::available(), probe.answer == WatchpointProbe::Answer::fire);
  EXPECT_EQ(probe.describe().rfind(probe.word(), 0), 0u) << "the description starts with the word";
}
