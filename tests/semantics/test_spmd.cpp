// SPMD framework: bsp_begin, bsp_end, bsp_init, bsp_abort, bsp_nprocs, bsp_pid, bsp_time,
// bsp_sync (paper section 2).
#include "unit_helpers.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace {

using unit::run;

// ---------------------------------------------------------------- bsp_begin / bsp_nprocs / pid

struct GrantCase {
  int procs;     // processors available (Options::procs)
  int maxprocs;  // argument of bsp_begin
};

class BeginGrants : public ::testing::TestWithParam<GrantCase> {};

TEST_P(BeginGrants, GrantsMinOfRequestAndAvailable) {
  const GrantCase c = GetParam();
  const int expect = std::min(c.procs, c.maxprocs);
  std::vector<int> seen_nprocs(c.procs, -1);
  std::vector<int> ran(c.procs, 0);
  std::vector<int> bad_pid;
  auto r = run(c.procs, 11, [&] {
    bsp_begin(c.maxprocs);
    const int pid = bsp_pid();
    if (pid < 0 || pid >= c.procs) {
      bad_pid.push_back(pid);
    } else {
      ran[pid] += 1;
      seen_nprocs[pid] = bsp_nprocs();
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(r.nprocs, expect);
  EXPECT_TRUE(bad_pid.empty());
  for (int i = 0; i < c.procs; ++i) {
    if (i < expect) {
      EXPECT_EQ(ran[i], 1) << "pid " << i << " must run exactly once";
      EXPECT_EQ(seen_nprocs[i], expect) << "pid " << i;
    } else {
      EXPECT_EQ(ran[i], 0) << "pid " << i << " is beyond the granted p";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Spmd, BeginGrants,
                         ::testing::Values(GrantCase{1, 1}, GrantCase{4, 4}, GrantCase{4, 2},
                                           GrantCase{2, 8}, GrantCase{8, 3}, GrantCase{8, 8},
                                           GrantCase{3, 100}, GrantCase{5, 1}),
                         [](const auto& info) {
                           return "procs" + std::to_string(info.param.procs) + "_m" +
                                  std::to_string(info.param.maxprocs);
                         });

TEST(Spmd, NprocsBeforeBeginReturnsAvailableProcessors) {
  // Process 0 is the continuation of the caller (2.1.3 (3)): the first value recorded is its
  // bsp_nprocs() before bsp_begin, which must be the number of processors available.
  for (int procs : {1, 3, 4, 7}) {
    std::vector<int> before;
    std::vector<int> after(procs, -1);
    auto r = run(procs, 5, [&] {
      before.push_back(bsp_nprocs());
      bsp_begin(2);
      after[bsp_pid()] = bsp_nprocs();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    ASSERT_FALSE(before.empty());
    EXPECT_EQ(before[0], procs) << "bsp_nprocs() before bsp_begin on process 0, procs=" << procs;
    const int p = std::min(2, procs);
    EXPECT_EQ(r.nprocs, p);
    for (int i = 0; i < p; ++i) EXPECT_EQ(after[i], p);
  }
}

// RUNTIME BUG (engine/frontends/c_api.cpp bsp_nprocs): processes 1..p-1 re-run the SPMD function from its
// start, so their bsp_nprocs() is also "called before bsp_begin" (paper 2.4) and must return the
// number of processors available; the runtime returns the granted p once the world exists.
// With procs=4 and bsp_begin(2), process 1 sees 2 instead of 4. Disabled until fixed.
TEST(Spmd, NprocsBeforeBeginIsAvailableOnEveryProcess) {
  for (int procs : {3, 4, 7}) {
    std::vector<int> before;
    auto r = run(procs, 5, [&] {
      before.push_back(bsp_nprocs());
      bsp_begin(2);
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    ASSERT_EQ(before.size(), 2u);
    for (int b : before) EXPECT_EQ(b, procs) << "procs=" << procs;
  }
}

TEST(Spmd, PidsAreUniqueAndStableAcrossSupersteps) {
  const int p = 6;
  for (auto seed : unit::seeds(10)) {
    std::vector<std::vector<int>> seen(p);
    std::vector<int> hits(p, 0);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int me = bsp_pid();
      hits[me]++;
      for (int s = 0; s < 3; ++s) {
        seen[me].push_back(bsp_pid());
        bsp_sync();
      }
      seen[me].push_back(bsp_pid());
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      EXPECT_EQ(hits[i], 1);
      EXPECT_EQ(seen[i], std::vector<int>(4, i)) << "seed " << seed;
    }
  }
}

// ---------------------------------------------------------------- bsp_sync

TEST(Spmd, SuperstepsCountsCompletedBarriers) {
  for (int nsync : {0, 1, 5}) {
    auto r = run(3, 2, [&] {
      bsp_begin(3);
      for (int i = 0; i < nsync; ++i) bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    EXPECT_EQ(r.supersteps, nsync);
    EXPECT_EQ(r.nprocs, 3);
  }
}

TEST(Spmd, SyncIsABarrier) {
  // Every process increments a shared counter before the barrier and reads it after: after the
  // barrier every process must see all p increments, whatever the schedule.
  const int p = 5;
  for (auto seed : unit::seeds(20)) {
    int counter = 0;
    std::vector<int> seen(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      counter++;
      bsp_sync();
      seen[bsp_pid()] = counter;
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(seen[i], p) << "seed " << seed << " pid " << i;
  }
}

TEST(Spmd, SingleProcessRunWorks) {
  int x = 0, y = 0;
  auto r = run(1, 3, [&] {
    bsp_begin(1);
    int v = 42;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    bsp_put(0, &v, &x, 0, sizeof v);
    bsp_get(0, &x, 0, &y, sizeof y);  // reads x before the put lands
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(r.nprocs, 1);
  EXPECT_EQ(x, 42);
  EXPECT_EQ(y, 0);
}

// ---------------------------------------------------------------- bsp_end

TEST(Spmd, EndWithoutSyncAfterCommunicationIsClean) {
  // bsp_end after a completed program: ok, and every process reached it.
  const int p = 4;
  std::vector<int> reached(p, 0);
  auto r = run(p, 9, [&] {
    bsp_begin(p);
    bsp_sync();
    reached[bsp_pid()] = 1;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(reached, std::vector<int>(p, 1));
  EXPECT_FALSE(r.aborted);
}

// ---------------------------------------------------------------- output capture

TEST(Spmd, OutputIsCapturedPerProcess) {
  const int p = 4;
  auto r = run(p, 17, [&] {
    bsp_begin(p);
    std::printf("hello from %d of %d\n", bsp_pid(), bsp_nprocs());
    bsp_sync();
    std::fprintf(stderr, "err-%d\n", bsp_pid());
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  ASSERT_EQ(r.output.size(), static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    const std::string hello = "hello from " + std::to_string(i) + " of " + std::to_string(p);
    EXPECT_NE(r.output[i].find(hello), std::string::npos) << "pid " << i << ": " << r.output[i];
    EXPECT_NE(r.output[i].find("err-" + std::to_string(i)), std::string::npos) << r.output[i];
    for (int j = 0; j < p; ++j) {
      if (j == i) continue;
      EXPECT_EQ(r.output[i].find("hello from " + std::to_string(j) + " "), std::string::npos)
          << "output of pid " << j << " leaked into pid " << i;
    }
  }
}

// ---------------------------------------------------------------- bsp_time

TEST(Spmd, TimeIsNonDecreasingAndNonNegative) {
  const int p = 4;
  for (auto seed : unit::seeds(8)) {
    std::vector<std::vector<double>> t(p);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      auto& mine = t[bsp_pid()];
      mine.push_back(bsp_time());
      volatile double acc = 0;
      for (int i = 0; i < 1000; ++i) acc = acc + i;
      mine.push_back(bsp_time());
      bsp_sync();
      mine.push_back(bsp_time());
      mine.push_back(bsp_time());
      bsp_sync();
      mine.push_back(bsp_time());
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      ASSERT_EQ(t[i].size(), 5u);
      EXPECT_GE(t[i][0], 0.0);
      for (std::size_t k = 1; k < t[i].size(); ++k)
        EXPECT_LE(t[i][k - 1], t[i][k]) << "seed " << seed << " pid " << i << " k " << k;
    }
  }
}

TEST(Spmd, TimeIsDeterministicPerSeedByDefault) {
  const int p = 3;
  auto once = [&](std::uint64_t seed) {
    std::vector<std::vector<double>> t(p);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      for (int s = 0; s < 3; ++s) {
        t[bsp_pid()].push_back(bsp_time());
        int x = bsp_pid();
        bsp_push_reg(&x, sizeof x);
        bsp_sync();
        bsp_put((bsp_pid() + 1) % p, &x, &x, 0, sizeof x);
        t[bsp_pid()].push_back(bsp_time());
        bsp_sync();
        bsp_pop_reg(&x);
        bsp_sync();
      }
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    return t;
  };
  for (auto seed : unit::seeds(5, 77)) EXPECT_EQ(once(seed), once(seed)) << "seed " << seed;
}

TEST(Spmd, TimeIsTheSameUnderEverySeedByDefault) {
  // Virtual time depends on the program's calls and communication only (docs/semantics.md), so a
  // program printing its timings prints the same under every schedule.
  const int p = 4;
  auto once = [&](std::uint64_t seed, bool jitter) {
    std::vector<std::vector<double>> t(p);
    bspcheck::Options o;
    o.procs = p;
    o.seed = seed;
    o.time_jitter = jitter;
    auto r = unit::run_opts(o, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      std::vector<int> x(static_cast<std::size_t>(p), 0);
      bsp_push_reg(x.data(), p * static_cast<int>(sizeof(int)));
      bsp_sync();
      t[me].push_back(bsp_time());
      for (int k = 0; k <= me; ++k) bsp_put(k, &me, x.data(), me * static_cast<int>(sizeof(int)), sizeof me);
      t[me].push_back(bsp_time());
      bsp_sync();
      t[me].push_back(bsp_time());
      bsp_pop_reg(x.data());
      bsp_sync();
      t[me].push_back(bsp_time());
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    return t;
  };
  const auto reference = once(1, false);
  for (auto seed : unit::seeds(10, 2)) EXPECT_EQ(once(seed, false), reference) << "seed " << seed;
  // Each process's calls advance only its own clock before the sync; the barrier moves every
  // clock to the latest plus g*h + l.
  EXPECT_LT(reference[0][1], reference[3][1]);
  EXPECT_EQ(reference[0][2], reference[3][2]);
  // With time_jitter the seed shows: some seed differs from seed 1.
  const auto jittered = once(1, true);
  bool differs = false;
  for (auto seed : unit::seeds(10, 2)) differs = differs || once(seed, true) != jittered;
  EXPECT_TRUE(differs) << "time_jitter must make bsp_time depend on the seed";
}

TEST(Spmd, QueriesCarryTheirCallSite) {
  // bsp_pid outside bsp_begin/bsp_end is misuse; the finding names its file and line.
  int line = 0;
  auto r = run(2, 1, [&] {
    line = __LINE__ + 1;
    (void)bsp_pid();
    bsp_begin(2);
    bsp_end();
  });
  const bspcheck::Finding* f = unit::find(r, "api-misuse");
  ASSERT_NE(f, nullptr) << r.summary();
  ASSERT_EQ(f->locations.size(), 1u);
  EXPECT_NE(f->locations[0].file.find("test_spmd.cpp"), std::string::npos) << r.summary();
  EXPECT_EQ(f->locations[0].line, line);
  EXPECT_EQ(f->locations[0].call, "bsp_pid");
}

TEST(Spmd, QueriesNestedInAPrimitiveLeaveItsSiteAlone) {
  // bsp_put((bsp_pid() + 1) % bsp_nprocs(), ...): the put's finding still names the put's line.
  int line = 0;
  auto r = run(2, 1, [&] {
    bsp_begin(2);
    int x = 0;
    line = __LINE__ + 1;
    bsp_put((bsp_pid() + 1) % bsp_nprocs(), &x, &x, 0, sizeof x);  // not registered
    bsp_sync();
    bsp_end();
  });
  const bspcheck::Finding* f = unit::find(r, "reg-unregistered");
  ASSERT_NE(f, nullptr) << r.summary();
  ASSERT_FALSE(f->locations.empty());
  EXPECT_EQ(f->locations[0].line, line) << r.summary();
  EXPECT_EQ(f->locations[0].call, "bsp_put");
}

// ---------------------------------------------------------------- bsp_init

int g_init_request = 0;
std::vector<int>* g_init_seen = nullptr;

void init_spmd_part() {
  bsp_begin(g_init_request);
  (*g_init_seen)[bsp_pid()] = bsp_nprocs();
  bsp_sync();
  bsp_end();
}

TEST(Spmd, InitStyleLikeThePaperExample) {
  // Paper 2.2.2: bsp_init(spmd_part, argc, argv); ... spmd_part();
  std::vector<int> seen(4, -1);
  g_init_seen = &seen;
  g_init_request = 3;
  auto r = run(4, 23, [] {
    static char arg0[] = "prog";
    static char* argv[] = {arg0, nullptr};
    bsp_init(init_spmd_part, 1, argv);
    init_spmd_part();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(r.nprocs, 3);
  EXPECT_EQ(seen, (std::vector<int>{3, 3, 3, -1}));
  g_init_seen = nullptr;
}

// ---------------------------------------------------------------- bsp_abort

TEST(Spmd, AbortStopsAllWithFormattedMessage) {
  const int p = 4;
  for (auto seed : unit::seeds(6)) {
    std::vector<int> after(p, 0);
    std::vector<int> before(p, 0);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      before[bsp_pid()] = 1;
      bsp_sync();
      if (bsp_pid() == 2) bsp_abort("fatal %d %s %.1f", 42, "xyz", 2.5);
      bsp_sync();
      after[bsp_pid()] = 1;
      bsp_end();
    });
    EXPECT_TRUE(r.aborted) << "seed " << seed;
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.abort_message.find("fatal 42 xyz 2.5"), std::string::npos) << r.abort_message;
    EXPECT_GE(r.count("abort"), 1u) << r.summary();
    EXPECT_EQ(before, std::vector<int>(p, 1));
    // No process can pass the second barrier: process 2 never reaches it.
    EXPECT_EQ(after, std::vector<int>(p, 0)) << "seed " << seed;
    const bspcheck::Finding* f = unit::find(r, "abort");
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(unit::contains(f->processes, 2)) << r.summary();
  }
}

TEST(Spmd, AbortInFirstSuperstepWithoutArguments) {
  bool after = false;
  auto r = run(3, 4, [&] {
    bsp_begin(3);
    if (bsp_pid() == 0) bsp_abort("plain message");
    bsp_sync();
    after = true;
    bsp_end();
  });
  EXPECT_TRUE(r.aborted);
  EXPECT_NE(r.abort_message.find("plain message"), std::string::npos) << r.abort_message;
  EXPECT_FALSE(after);
  EXPECT_GE(r.count("abort"), 1u);
}

TEST(Spmd, AbortByAllProcessesInSameSuperstep) {
  // Paper 2.3.2 (1): one, all or a subset may print; the run is aborted with one of the messages.
  auto r = run(4, 8, [&] {
    bsp_begin(4);
    bsp_abort("proc %d gives up", bsp_pid());
    bsp_end();
  });
  EXPECT_TRUE(r.aborted);
  EXPECT_NE(r.abort_message.find("gives up"), std::string::npos) << r.abort_message;
  EXPECT_FALSE(r.ok());
}

TEST(Spmd, NoAbortMeansNotAborted) {
  auto r = run(2, 1, [] {
    bsp_begin(2);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.aborted);
  EXPECT_TRUE(r.abort_message.empty());
  EXPECT_EQ(r.count("abort"), 0u);
  EXPECT_TRUE(r.findings.empty()) << r.summary();
}

}  // namespace
