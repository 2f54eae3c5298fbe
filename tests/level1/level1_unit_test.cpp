// level1_unit_test.cpp: GoogleTest checks of the level-1 library's corners and of the testing
// helpers (bspcheck/testing.hpp): sweeps over p and seeds, the reproduce token, the
// BSPCHECK_TESTING_CASE override, and that the level1-hygiene check the properties rely on is
// live (each of its three rules, broken on purpose, is reported).
#include <gtest/gtest.h>

#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/hygiene.hpp>
#include <bspcheck/level1.h>
#include <bspcheck/level1.hpp>
#include <bspcheck/testing.hpp>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

namespace l1 = bspcheck::level1;
namespace bt = bspcheck::testing;

bt::Sweep smallSweep() {
  bt::Sweep s;
  s.pmin = 1;
  s.pmax = 8;
  s.seeds = 3;
  return s;
}

// Every collective once per case, results checked inside; the sweep asserts no findings.
TEST(Level1Sweep, AllCollectivesCleanAndRight) {
  std::vector<int> wrong;
  EXPECT_TRUE(bt::RunsClean(smallSweep(), [&] {
    bsp_begin(bsp_nprocs());
    const int p = bsp_nprocs(), me = bsp_pid();
    std::vector<int> v(5, me == 1 % p ? 7 : 0);
    l1::bcast(1 % p, v);
    l1::bcast_2phase(1 % p, v);
    int bad = v != std::vector<int>(5, 7);
    bad += l1::allreduce(me + 1, std::plus<>{}) != p * (p + 1) / 2;
    bad += l1::scan(1, std::plus<>{}) != me + 1;
    bad += l1::reduce(0, me, std::plus<>{}) != (me == 0 ? p * (p - 1) / 2 : me);
    const std::vector<int> all = l1::allgather(me);
    std::vector<int> iota(p);
    std::iota(iota.begin(), iota.end(), 0);
    bad += all != iota;
    bad += l1::gather(p - 1, me) != (me == p - 1 ? iota : std::vector<int>{});
    int mine = -1;
    l1::scatter(0, iota, std::span<int>(&mine, 1));
    bad += mine != me;
    std::vector<int> to(p, me);
    bad += l1::alltoall(to) != iota;
    std::vector<std::vector<int>> out(p);
    for (int j = 0; j < p; ++j) out[j].assign(j, me);  // j elements to process j
    const auto in = l1::exchange(out);
    for (int i = 0; i < p; ++i) bad += in[i] != std::vector<int>(me, i);
    if (bad) wrong.push_back(me);
    bsp_end();
  }));
  EXPECT_TRUE(wrong.empty());
}

// The user's own registrations and tag size survive a level-1 call, and messages sent after it
// use the user's tag size again.
TEST(Level1Sweep, CallerStateSurvives) {
  int failures = 0;
  EXPECT_TRUE(bt::RunsClean(smallSweep(), [&] {
    bsp_begin(bsp_nprocs());
    const int p = bsp_nprocs(), me = bsp_pid();
    int x = me, tag = 8;
    bsp_push_reg(&x, sizeof x);
    bsp_set_tagsize(&tag);
    bsp_sync();
    l1::bcast(0, x);                                         // registers &x again, pops it
    std::vector<std::vector<int>> out(p, std::vector<int>{me});
    (void)l1::exchange(out);                                 // tag size 4 inside, 8 asked back
    bsp_sync();                                              // the 8 takes effect
    const int next = (me + 1) % p;
    const int val = 100 + me;
    bsp_put(next, &val, &x, 0, sizeof val);                  // the user's registration of x
    const char t8[8] = {1, 2, 3, 4, 5, 6, 7, static_cast<char>(me)};
    bsp_send(next, t8, &val, sizeof val);
    bsp_sync();
    int n = 0, bytes = 0, status = 0;
    char got[8] = {};
    bsp_qsize(&n, &bytes);
    bsp_get_tag(&status, got);
    int payload = 0;
    bsp_move(&payload, sizeof payload);
    const int prev = (me + p - 1) % p;
    if (x != 100 + prev || n != 1 || status != 4 || got[7] != prev || payload != 100 + prev) ++failures;
    int zero = 0;
    bsp_set_tagsize(&zero);
    bsp_pop_reg(&x);
    bsp_end();
  }));
  EXPECT_EQ(failures, 0);
}

// The h-relations of the two broadcasts on a large buffer, as level1.h documents them.
TEST(Level1Cost, TwoPhaseBroadcastMovesLess) {
  constexpr int p = 8, B = 4096;
  for (bool two : {false, true}) {
    bspcheck::Options o;
    o.procs = p;
    const bspcheck::RunResult r = bspcheck::run(o, [&] {
      bsp_begin(p);
      std::vector<char> buf(B, static_cast<char>(bsp_pid()));
      if (two) l1::bcast_2phase(3, buf);
      else l1::bcast(3, buf);
      bsp_end();
    });
    EXPECT_BSP_CLEAN(r);
    ASSERT_EQ(r.supersteps, two ? 3 : 2);
    ASSERT_EQ(r.superstep_stats.size(), two ? 4u : 3u);
    EXPECT_EQ(r.superstep_stats[0].h_bytes, 0u);
    if (two) {
      EXPECT_EQ(r.superstep_stats[1].h_bytes, static_cast<std::size_t>(B - B / p));
      EXPECT_EQ(r.superstep_stats[2].h_bytes, static_cast<std::size_t>((p - 1) * (B / p)));
    } else {
      EXPECT_EQ(r.superstep_stats[1].h_bytes, static_cast<std::size_t>((p - 1) * B));
    }
  }
}

// The C API with a C function pointer and a context argument.
struct ModCtx {
  std::uint32_t mod;
};
extern "C" void add_mod(void* acc, const void* x, std::size_t count, void* ctx) {
  auto* a = static_cast<std::uint32_t*>(acc);
  const auto* b = static_cast<const std::uint32_t*>(x);
  const std::uint32_t m = static_cast<ModCtx*>(ctx)->mod;
  for (std::size_t k = 0; k < count; ++k) a[k] = (a[k] + b[k]) % m;
}

TEST(Level1CApi, AllreduceWithContext) {
  std::vector<std::uint32_t> got(5);
  const bspcheck::RunResult r = bspcheck::run(bspcheck::Options{}, [&] {
    bsp_begin(bsp_nprocs());
    ModCtx ctx{7};
    std::uint32_t v[2] = {static_cast<std::uint32_t>(bsp_pid()) + 5, 1};
    bsp_allreduce(v, v, 2, sizeof v[0], add_mod, &ctx);  // in place
    got[bsp_pid()] = v[0] * 10 + v[1];
    bsp_end();
  });
  EXPECT_BSP_CLEAN(r);
  // v[0]: ((5 + 6) % 7 + 7) % 7 = 4, (4 + 8) % 7 = 5; v[1]: 4 ones = 4.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], 5u * 10 + 4) << i;
}

// Misuse ends the run with bsp_abort and a message naming the problem.
TEST(Level1Misuse, BadRootAborts) {
  bspcheck::Options o;
  o.procs = 3;
  const bspcheck::RunResult r = bspcheck::run(o, [] {
    bsp_begin(3);
    int x = 0;
    bsp_bcast(3, &x, 1, sizeof x);
    bsp_end();
  });
  EXPECT_TRUE(r.aborted);
  EXPECT_NE(r.abort_message.find("root 3"), std::string::npos) << r.abort_message;
}

TEST(Level1Misuse, AlltoallvCountMismatchAborts) {
  bspcheck::Options o;
  o.procs = 2;
  const bspcheck::RunResult r = bspcheck::run(o, [] {
    bsp_begin(2);
    int src[4] = {1, 2, 3, 4}, dst[4] = {};
    const std::size_t sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {1, 1}, rd[2] = {0, 1};
    bsp_alltoallv(src, sc, sd, dst, rc, rd, sizeof(int));  // each expects 1, gets 2 from the other
    bsp_end();
  });
  EXPECT_TRUE(r.aborted);
  EXPECT_NE(r.abort_message.find("expects"), std::string::npos) << r.abort_message;
}

// The hygiene check is live: each level-1 rule broken on purpose inside a bracket is reported,
// so the properties' "no findings" is not vacuous.
bspcheck::RunResult runBroken(int which) {
  bspcheck::Options o;
  o.procs = 2;
  return bspcheck::run(o, [which] {
    bsp_begin(2);
    int x = 0;
    {
      bspcheck::Level1Scope scope("broken");
      if (which == 0) {  // a registration left behind
        bsp_push_reg(&x, sizeof x);
        bsp_sync();
      } else if (which == 1) {  // tag size not restored
        int t = 4;
        bsp_set_tagsize(&t);
        bsp_sync();
      } else {  // a message left in the queue
        bsp_send(1 - bsp_pid(), nullptr, &x, sizeof x);
        bsp_sync();
      }
    }
    if (which == 0) bsp_pop_reg(&x);
    bsp_end();
  });
}

TEST(Level1Hygiene, EachBrokenRuleIsReported) {
  const char* what[] = {"registrations", "tag size", "unread messages"};
  for (int k = 0; k < 3; ++k) {
    const bspcheck::RunResult r = runBroken(k);
    EXPECT_EQ(r.count("level1-hygiene"), 2u) << r.summary();
    EXPECT_NE(r.summary().find(what[k]), std::string::npos) << r.summary();
    EXPECT_FALSE(bt::IsBspClean(r));
    EXPECT_TRUE(bt::IsBspClean(r, bt::Clean::no_errors)) << "a warning only";
  }
}

// A failing sweep names the case and how to run it again.
TEST(Level1Testing, SweepFailureCarriesReproduceToken) {
  const auto res = bt::RunsClean(smallSweep(), [] {
    bsp_begin(bsp_nprocs());
    int x = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    if (bsp_nprocs() > 1 && bsp_pid() == 0) bsp_put(1, &x, &x, 2, sizeof x);  // out of bounds
    bsp_sync();
    bsp_pop_reg(&x);
    bsp_end();
  });
  ASSERT_FALSE(res);
  const std::string m = res.message();
  EXPECT_NE(m.find("bounds-put"), std::string::npos) << m;
  EXPECT_NE(m.find("BSPCHECK_TESTING_CASE=2:1"), std::string::npos) << m;
  EXPECT_NE(m.find("bsp-check run -p 2 --seed 1"), std::string::npos) << m;
}

TEST(Level1Testing, EnvironmentSelectsOneCase) {
  ::setenv("BSPCHECK_TESTING_CASE", "3:17:round_robin", 1);
  std::vector<bt::BspCase> seen;
  const auto res = bt::ForEachCase(smallSweep(), [&](const bt::BspCase& c) {
    seen.push_back(c);
    return ::testing::AssertionSuccess();
  });
  ::unsetenv("BSPCHECK_TESTING_CASE");
  EXPECT_TRUE(res);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], (bt::BspCase{3, 17, bspcheck::Strategy::round_robin}));
  std::vector<bt::BspCase> all;
  (void)bt::ForEachCase(smallSweep(), [&](const bt::BspCase& c) {
    all.push_back(c);
    return ::testing::AssertionSuccess();
  });
  EXPECT_EQ(all.size(), 8u * 3u);
}

}  // namespace
