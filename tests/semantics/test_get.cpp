// bsp_get (paper section 3.3, notes 3.3.3): sources read at the sync before any destination is
// written; destinations written at the end of the superstep.
#include "unit_helpers.hpp"

namespace {

using unit::run;

class GetRing : public ::testing::TestWithParam<int> {};

TEST_P(GetRing, FetchesFromNeighbour) {
  const int p = GetParam();
  for (auto seed : unit::seeds(4)) {
    std::vector<int> got(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int x = 500 + bsp_pid();
      int y = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      bsp_get((bsp_pid() + 1) % p, &x, 0, &y, sizeof y);
      bsp_sync();
      got[bsp_pid()] = y;
      bsp_pop_reg(&x);
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(got[i], 500 + (i + 1) % p) << "p=" << p;
  }
}

INSTANTIATE_TEST_SUITE_P(Get, GetRing, ::testing::Range(1, 9));

TEST(Get, SourceIsReadAtTheSyncNotAtTheCall) {
  // The owner changes the source after (or before: schedule-dependent) the get is issued; the
  // value read is the one at the end of the superstep's computation.
  const int p = 4;
  for (auto seed : unit::seeds(20)) {
    std::vector<int> got(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int x = bsp_pid();
      int y = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      bsp_get((bsp_pid() + 1) % p, &x, 0, &y, sizeof y);
      x = 100 + bsp_pid();
      bsp_sync();
      got[bsp_pid()] = y;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(got[i], 100 + (i + 1) % p) << "seed " << seed;
  }
}

TEST(Get, DestinationUnchangedBeforeTheSyncIncludingSelfGet) {
  const int p = 3;
  for (auto seed : unit::seeds(15)) {
    std::vector<int> before(p, 0), self_before(p, 0), after(p, 0), self_after(p, 0);
    bspcheck::Options o;
    o.procs = p;
    o.seed = seed;
    o.asan_poisoning = false;  // the test reads the destinations before the sync on purpose
    auto r = unit::run_opts(o, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      int x = 7 + me;
      int y = -1, z = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      bsp_get((me + 2) % p, &x, 0, &y, sizeof y);
      bsp_get(me, &x, 0, &z, sizeof z);  // note 3.3.3 (5)
      (void)bsp_pid();
      before[me] = y;
      self_before[me] = z;
      bsp_sync();
      after[me] = y;
      self_after[me] = z;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      EXPECT_EQ(before[i], -1) << "seed " << seed;
      EXPECT_EQ(self_before[i], -1) << "seed " << seed;
      EXPECT_EQ(after[i], 7 + (i + 2) % p);
      EXPECT_EQ(self_after[i], 7 + i);
    }
  }
}

TEST(Get, SwapViaTwoGetsAcrossProcesses) {
  // Both read before either writes: pid 0 gets pid 1's a into its a, and vice versa.
  for (auto seed : unit::seeds(20)) {
    std::vector<int> a = {10, 20};
    auto r = run(2, seed, [&] {
      bsp_begin(2);
      const int me = bsp_pid();
      bsp_push_reg(&a[me], sizeof(int));
      bsp_sync();
      bsp_get(1 - me, &a[me], 0, &a[me], sizeof(int));
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    EXPECT_EQ(a, (std::vector<int>{20, 10})) << "seed " << seed;
  }
}

TEST(Get, SwapViaTwoSelfGets) {
  int a_out = 0, b_out = 0;
  auto r = run(1, 3, [&] {
    bsp_begin(1);
    int a = 1, b = 2;
    bsp_push_reg(&a, sizeof a);
    bsp_push_reg(&b, sizeof b);
    bsp_sync();
    bsp_get(0, &a, 0, &b, sizeof b);
    bsp_get(0, &b, 0, &a, sizeof a);
    bsp_sync();
    a_out = a;
    b_out = b;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(a_out, 2);
  EXPECT_EQ(b_out, 1);
}

TEST(Get, GetReadsBeforePutsIntoTheSameAreaLand) {
  // Every process puts into its neighbour's x and gets the neighbour's x in the same superstep:
  // the get sees the neighbour's old x (section 3.3, order (1)-(3)).
  const int p = 4;
  for (auto seed : unit::seeds(20)) {
    std::vector<int> xs(p, -1), ys(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      int x = me;  // old value
      int y = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      const int nb = (me + 1) % p;
      int v = 100 + me;
      bsp_put(nb, &v, &x, 0, sizeof v);
      bsp_get(nb, &x, 0, &y, sizeof y);
      bsp_sync();
      xs[me] = x;
      ys[me] = y;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      EXPECT_EQ(ys[i], (i + 1) % p) << "seed " << seed << ": get must read the old value";
      EXPECT_EQ(xs[i], 100 + (i + p - 1) % p);
    }
  }
}

// Paper 3.3: the value fetched by a get "only takes effect at the end of the superstep after all
// remote reads ... are performed, but before any data is written by any bsp_put": where a get's
// destination overlaps a put's destination the put must win, on every seed.
TEST(Get, GetAndPutIntoSameDestinationPutIsWrittenLast) {
  // pid 0 gets into its z while pid 1 puts into pid 0's z: the put value must survive.
  for (auto seed : unit::seeds(32)) {
    int z0 = 0;
    auto r = run(2, seed, [&] {
      bsp_begin(2);
      const int me = bsp_pid();
      int x = 111;
      int z = 0;
      bsp_push_reg(&x, sizeof x);
      bsp_push_reg(&z, sizeof z);
      bsp_sync();
      if (me == 0) bsp_get(1, &x, 0, &z, sizeof z);
      int v = 222;
      if (me == 1) bsp_put(0, &v, &z, 0, sizeof v);
      bsp_sync();
      if (me == 0) z0 = z;
      bsp_end();
    });
    EXPECT_TRUE(r.ok()) << r.summary();
    EXPECT_EQ(z0, 222) << "seed " << seed;
    // The warning says what happens (the put lands last), not that the schedule decides.
    const bspcheck::Finding* f = unit::find(r, "put-collision");
    ASSERT_NE(f, nullptr) << "seed " << seed;
    EXPECT_NE(f->message.find("the bsp_put's data lands last"), std::string::npos) << f->message;
    EXPECT_EQ(f->message.find("schedule"), std::string::npos) << f->message;
  }
}

TEST(Get, OffsetsAndOddByteCounts) {
  std::vector<unsigned char> got(8, 0);
  auto r = run(2, 7, [&] {
    bsp_begin(2);
    unsigned char src[10];
    for (int i = 0; i < 10; ++i) src[i] = static_cast<unsigned char>(bsp_pid() * 100 + i);
    bsp_push_reg(src, sizeof src);
    bsp_sync();
    unsigned char dst[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (bsp_pid() == 0) {
      bsp_get(1, src, 7, dst, 3);      // bytes 7..9: up to the end
      bsp_get(1, src, 0, dst + 5, 1);  // byte 0
    }
    bsp_sync();
    if (bsp_pid() == 0)
      for (int i = 0; i < 8; ++i) got[i] = dst[i];
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(got, (std::vector<unsigned char>{107, 108, 109, 0, 0, 100, 0, 0}));
}

TEST(Get, ZeroByteGetDoesNothing) {
  std::vector<int> dst(2, -3);
  auto r = run(2, 7, [&] {
    bsp_begin(2);
    int x[2] = {1, 2};
    bsp_push_reg(x, sizeof x);
    bsp_sync();
    bsp_get(1 - bsp_pid(), x, 0, &dst[bsp_pid()], 0);
    bsp_get(1 - bsp_pid(), x, sizeof x, &dst[bsp_pid()], 0);  // offset at the end
    bsp_get(bsp_pid(), x, 4, &dst[bsp_pid()], 0);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(dst, (std::vector<int>{-3, -3}));
}

TEST(Get, DestinationNeedNotBeRegistered) {
  // Note 3.3.3 (2); the source of a get is the registered one.
  std::vector<double> out(3, 0);
  auto r = run(3, 2, [&] {
    bsp_begin(3);
    double val = 1.5 * bsp_pid();
    bsp_push_reg(&val, sizeof val);
    bsp_sync();
    double* heap = new double(-1);
    bsp_get(2, &val, 0, heap, sizeof(double));
    bsp_sync();
    out[bsp_pid()] = *heap;
    delete heap;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(out, (std::vector<double>{3.0, 3.0, 3.0}));
}

TEST(Get, SumExampleFromThePaperWithGet) {
  // Paper 3.3.2 with bsp_get instead of bsp_hpget (the hp version is in test_hp.cpp).
  const int p = 5;
  for (auto seed : unit::seeds(5)) {
    std::vector<int> sums(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      std::vector<int> xs(bsp_pid() + 1, bsp_pid());  // pid i holds i+1 copies of i
      int result = 0;
      for (int v : xs) result += v;
      bsp_push_reg(&result, sizeof(int));
      bsp_sync();
      std::vector<int> local(p, 0);
      for (int i = 0; i < p; ++i) bsp_get(i, &result, 0, &local[i], sizeof(int));
      bsp_sync();
      result = 0;
      for (int i = 0; i < p; ++i) result += local[i];
      bsp_pop_reg(&result);
      sums[bsp_pid()] = result;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    int want = 0;
    for (int i = 0; i < p; ++i) want += i * (i + 1);
    EXPECT_EQ(sums, std::vector<int>(p, want));
  }
}

TEST(GetErrors, BoundsUsesTheSourceOwnersSize) {
  // pid 0 registers 16 bytes, pid 1 registers 4 bytes of the same slot.
  std::vector<std::vector<int>> dst(2, std::vector<int>(4, -1));
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int area[4] = {10 * bsp_pid() + 1, 10 * bsp_pid() + 2, 10 * bsp_pid() + 3,
                   10 * bsp_pid() + 4};
    bsp_push_reg(area, bsp_pid() == 0 ? 16 : 4);
    bsp_sync();
    auto& mine = dst[bsp_pid()];
    if (bsp_pid() == 1) bsp_get(0, area, 0, mine.data(), 16);  // fine: pid 0 has 16
    if (bsp_pid() == 0) bsp_get(1, area, 0, mine.data(), 8);   // 8 > 4 on pid 1: bounds
    if (bsp_pid() == 0) bsp_get(1, area, 4, mine.data(), 1);   // 4 + 1 > 4: bounds
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bounds-get"), 2u) << r.summary();
  EXPECT_EQ(dst[1], (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(dst[0], (std::vector<int>{-1, -1, -1, -1}));
}

TEST(GetErrors, UnregisteredSource) {
  std::vector<int> dst(2, -1);
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int x = 4;
    bsp_sync();
    if (bsp_pid() == 0) bsp_get(1, &x, 0, &dst[0], sizeof(int));
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(dst[0], -1);
}

TEST(GetErrors, BadPid) {
  std::vector<int> dst(2, -1);
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int x = 4;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    if (bsp_pid() == 1) {
      bsp_get(2, &x, 0, &dst[1], sizeof(int));
      bsp_get(-3, &x, 0, &dst[1], sizeof(int));
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bad-pid"), 2u) << r.summary();
  EXPECT_EQ(dst[1], -1);
}

}  // namespace
