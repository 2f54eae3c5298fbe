// bsp_put (paper section 3.2, notes 3.2.4): buffered on source, buffered on destination.
#include "unit_helpers.hpp"

#include <malloc.h>

#include <algorithm>
#include <numeric>

extern "C" std::size_t __sanitizer_get_current_allocated_bytes() __attribute__((weak));

namespace {

using unit::run;

class PutRing : public ::testing::TestWithParam<int> {};

TEST_P(PutRing, ShiftsValuesAroundTheRing) {
  const int p = GetParam();
  for (auto seed : unit::seeds(4)) {
    std::vector<int> got(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int x = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      int v = 1000 + bsp_pid();
      bsp_put((bsp_pid() + 1) % p, &v, &x, 0, sizeof v);
      bsp_sync();
      got[bsp_pid()] = x;
      bsp_pop_reg(&x);
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(got[i], 1000 + (i + p - 1) % p) << "p=" << p;
  }
}

INSTANTIATE_TEST_SUITE_P(Put, PutRing, ::testing::Range(1, 9));

TEST(Put, ReverseExampleFromThePaper) {
  // Paper 3.2.2: put from and to the same variable in the same superstep.
  for (int p : {1, 2, 3, 4, 7}) {
    std::vector<int> result(p, -1);
    auto r = run(p, static_cast<std::uint64_t>(p), [&] {
      bsp_begin(p);
      auto reverse = [](int x) {
        bsp_push_reg(&x, sizeof(int));
        bsp_sync();
        bsp_put(bsp_nprocs() - bsp_pid() - 1, &x, &x, 0, sizeof(int));
        bsp_sync();
        bsp_pop_reg(&x);
        return x;
      };
      result[bsp_pid()] = reverse(bsp_pid() * 3 + 1);
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(result[i], (p - i - 1) * 3 + 1) << "p=" << p;
  }
}

TEST(Put, PutArrayExampleFromThePaper) {
  // Paper 3.2.3: xs[xs[i]] := xs[i] over a block-distributed permutation.
  const int p = 4, n = 16, nop = n / p;
  for (auto seed : unit::seeds(6)) {
    // A permutation of 0..n-1 (a fixed one, chosen per seed by rotation and reflection).
    std::vector<int> global(n);
    for (int i = 0; i < n; ++i) global[i] = static_cast<int>((i * 5 + seed) % n);
    std::vector<std::vector<int>> local(p);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      std::vector<int> xs(global.begin() + me * nop, global.begin() + (me + 1) * nop);
      bsp_push_reg(xs.data(), nop * static_cast<int>(sizeof(int)));
      bsp_sync();
      for (int i = 0; i < nop; ++i) {
        int dst_pid = xs[i] / nop, dst_idx = xs[i] % nop;
        bsp_put(dst_pid, &xs[i], xs.data(), dst_idx * static_cast<int>(sizeof(int)),
                sizeof(int));
      }
      bsp_sync();
      bsp_pop_reg(xs.data());
      local[me] = xs;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int q = 0; q < p; ++q)
      for (int i = 0; i < nop; ++i) EXPECT_EQ(local[q][i], q * nop + i) << "seed " << seed;
  }
}

TEST(Put, SourceIsCopiedAtTheCall) {
  const int p = 3;
  for (auto seed : unit::seeds(8)) {
    std::vector<int> got(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int x = -1;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      int v = 10 + bsp_pid();
      bsp_put((bsp_pid() + 1) % p, &v, &x, 0, sizeof v);
      v = 999;  // must not matter
      bsp_sync();
      got[bsp_pid()] = x;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(got[i], 10 + (i + p - 1) % p) << "seed " << seed;
  }
}

TEST(Put, SourceBufferFreedAfterCallStillDelivers) {
  std::vector<int> got(2, -1);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    int x = -1;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    {
      auto* heap = new int(70 + bsp_pid());
      bsp_put(1 - bsp_pid(), heap, &x, 0, sizeof(int));
      *heap = -5;
      delete heap;
    }
    bsp_sync();
    got[bsp_pid()] = x;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(got, (std::vector<int>{71, 70}));
}

TEST(Put, DestinationUnchangedBeforeTheSync) {
  // Remote and self puts: the destination keeps its old value until the barrier, whatever the
  // interleaving (some seeds run the sender before the reader).
  const int p = 4;
  for (auto seed : unit::seeds(25)) {
    std::vector<int> before(p, -1), self_before(p, -1), after(p, -1), self_after(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      int x = 0, s = 0;
      bsp_push_reg(&x, sizeof x);
      bsp_push_reg(&s, sizeof s);
      bsp_sync();
      int v = 1 + me;
      bsp_put((me + 1) % p, &v, &x, 0, sizeof v);
      bsp_put(me, &v, &s, 0, sizeof v);  // self-put
      (void)bsp_pid();                   // a switch point
      before[me] = x;
      self_before[me] = s;
      bsp_sync();
      after[me] = x;
      self_after[me] = s;
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      EXPECT_EQ(before[i], 0) << "seed " << seed << " pid " << i;
      EXPECT_EQ(self_before[i], 0) << "seed " << seed << " pid " << i;
      EXPECT_EQ(after[i], 1 + (i + p - 1) % p);
      EXPECT_EQ(self_after[i], 1 + i);
    }
  }
}

TEST(Put, OffsetsAndOddByteCounts) {
  std::vector<std::vector<unsigned char>> buf(2, std::vector<unsigned char>(16, 0));
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), 16);
    bsp_sync();
    if (bsp_pid() == 0) {
      const unsigned char src[5] = {1, 2, 3, 4, 5};
      bsp_put(1, src, mine.data(), 3, 3);        // bytes 3..5
      bsp_put(1, src + 2, mine.data(), 13, 3);   // bytes 13..15: exactly up to the end
      bsp_put(1, src + 4, mine.data(), 0, 1);    // byte 0
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  std::vector<unsigned char> want(16, 0);
  want[0] = 5;
  want[3] = 1, want[4] = 2, want[5] = 3;
  want[13] = 3, want[14] = 4, want[15] = 5;
  EXPECT_EQ(buf[1], want);
  EXPECT_EQ(buf[0], std::vector<unsigned char>(16, 0));
}

TEST(Put, SelfPutOverlappingSourceAndDestinationUsesOldSource) {
  // Shift an array left by one within one process: buffered on source means old values.
  std::vector<std::vector<int>> got(1);
  auto r = run(1, 1, [&] {
    bsp_begin(1);
    std::vector<int> a = {0, 1, 2, 3, 4, 5};
    bsp_push_reg(a.data(), 6 * sizeof(int));
    bsp_sync();
    bsp_put(0, a.data() + 1, a.data(), 0, 5 * sizeof(int));
    bsp_put(0, a.data(), a.data(), 5 * sizeof(int), sizeof(int));  // old a[0] into a[5]
    bsp_sync();
    got[0] = a;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(got[0], (std::vector<int>{1, 2, 3, 4, 5, 0}));
}

TEST(Put, ZeroBytePutDoesNothing) {
  // Note 3.2.4 (4), including an offset at the very end of the area and a null source.
  std::vector<std::vector<int>> buf(2, std::vector<int>(2, 3));
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), 2 * sizeof(int));
    bsp_sync();
    int v = 9;
    bsp_put(1 - bsp_pid(), &v, mine.data(), 0, 0);
    bsp_put(1 - bsp_pid(), &v, mine.data(), 2 * sizeof(int), 0);  // offset == size
    bsp_put(bsp_pid(), &v, mine.data(), sizeof(int), 0);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(r.count("bounds-put"), 0u);
  EXPECT_EQ(buf[0], (std::vector<int>{3, 3}));
  EXPECT_EQ(buf[1], (std::vector<int>{3, 3}));
}

TEST(Put, ManyProcessesIntoDisjointOffsets) {
  // Gather: every process puts its value into slot pid of an array on pid 0.
  const int p = 7;
  for (auto seed : unit::seeds(5)) {
    std::vector<std::vector<int>> arr(p, std::vector<int>(p, -1));
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      auto& mine = arr[bsp_pid()];
      bsp_push_reg(mine.data(), p * static_cast<int>(sizeof(int)));
      bsp_sync();
      int v = bsp_pid() * bsp_pid();
      bsp_put(0, &v, mine.data(), bsp_pid() * static_cast<int>(sizeof(int)), sizeof v);
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(arr[0][i], i * i);
    for (int q = 1; q < p; ++q) EXPECT_EQ(arr[q], std::vector<int>(p, -1));
  }
}

TEST(Put, LargePutOfManyBytes) {
  const int n = 10000;
  std::vector<std::vector<double>> buf(2, std::vector<double>(n, 0.0));
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), n * static_cast<int>(sizeof(double)));
    bsp_sync();
    std::vector<double> src(n);
    for (int i = 0; i < n; ++i) src[i] = i * 0.5 + bsp_pid();
    bsp_put(1 - bsp_pid(), src.data(), mine.data(), 0, n * static_cast<int>(sizeof(double)));
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < n; i += 997) {
    EXPECT_EQ(buf[0][i], i * 0.5 + 1);
    EXPECT_EQ(buf[1][i], i * 0.5 + 0);
  }
}

// Heap bytes in use now: glibc's accounting, or the sanitizer allocator's in an ASan build.
std::size_t heap_in_use() {
  if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// The runtime keeps put payloads from the call to the barrier, and not longer: 200 supersteps
// each putting 1 MiB need about 1 MiB of buffer, not 200.
TEST(Put, PayloadBufferIsReusedAcrossSupersteps) {
  const int nbytes = 1 << 20;
  std::vector<std::vector<char>> dst(2, std::vector<char>(nbytes));
  std::vector<char> src(nbytes, 'x');
  std::size_t in_use_early = 0, in_use_late = 0;
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    bsp_push_reg(dst[bsp_pid()].data(), nbytes);
    bsp_sync();
    for (int s = 0; s < 200; ++s) {
      src[0] = static_cast<char>(s);
      if (bsp_pid() == 0) bsp_put(1, src.data(), dst[0].data(), 0, nbytes);
      bsp_sync();
      if (bsp_pid() == 1 && dst[1][0] != static_cast<char>(s)) bsp_abort("superstep %d: wrong data", s);
      if (bsp_pid() == 0 && s == 10) in_use_early = heap_in_use();
      if (bsp_pid() == 0 && s == 199) in_use_late = heap_in_use();
    }
    bsp_pop_reg(dst[bsp_pid()].data());
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  ASSERT_GT(in_use_early, 0u);
  EXPECT_LT(in_use_late, in_use_early + 16 * static_cast<std::size_t>(nbytes))
      << "the heap grew by " << (in_use_late - in_use_early) / nbytes << " MiB over 189 supersteps";
}

TEST(Put, CollisionWinnerIsOneOfTheWritersAndDependsOnTheSeed) {
  // Two processes put different values into the same word of pid 0. The result is one of them
  // (never a mix), and the winner is a seeded choice: across seeds both must occur.
  std::set<int> winners;
  for (auto seed : unit::seeds(64)) {
    int result = 0;
    auto r = run(3, seed, [&] {
      bsp_begin(3);
      int x = 0;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      int v = bsp_pid() == 1 ? 0x11111111 : 0x22222222;
      if (bsp_pid() != 0) bsp_put(0, &v, &x, 0, sizeof v);
      bsp_sync();
      if (bsp_pid() == 0) result = x;
      bsp_end();
    });
    EXPECT_TRUE(r.ok()) << r.summary();  // a collision is at most a warning
    EXPECT_TRUE(result == 0x11111111 || result == 0x22222222) << std::hex << result;
    winners.insert(result);
  }
  EXPECT_EQ(winners.size(), 2u) << "collision winner never varies across 64 seeds";
}

TEST(PutErrors, BoundsErrorIsSkippedAndOtherPutsStillHappen) {
  // Note 3.2.4 (3): o + n > x is a bounds error.
  std::vector<std::vector<int>> buf(2, std::vector<int>(4, 0));
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), 2 * sizeof(int));  // only the first two ints are registered
    bsp_sync();
    if (bsp_pid() == 0) {
      int v[2] = {5, 6};
      bsp_put(1, v, mine.data(), sizeof(int), 2 * sizeof(int));  // 4 + 8 > 8: bounds
      bsp_put(1, v, mine.data(), 0, sizeof(int));                 // fine
      bsp_put(1, v, mine.data(), 2 * sizeof(int), 1);             // 8 + 1 > 8: bounds
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bounds-put"), 2u) << r.summary();
  EXPECT_EQ(buf[1], (std::vector<int>{5, 0, 0, 0}));
}

TEST(PutErrors, BadPid) {
  const int p = 3;
  std::vector<int> x(p, 0);
  auto r = run(p, 4, [&] {
    bsp_begin(p);
    bsp_push_reg(&x[bsp_pid()], sizeof(int));
    bsp_sync();
    int v = 8;
    if (bsp_pid() == 0) {
      bsp_put(p, &v, &x[0], 0, sizeof v);
      bsp_put(-1, &v, &x[0], 0, sizeof v);
      bsp_put(1, &v, &x[0], 0, sizeof v);  // fine
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bad-pid"), 2u) << r.summary();
  EXPECT_EQ(x, (std::vector<int>{0, 8, 0}));
}

}  // namespace
