// Registration: bsp_push_reg, bsp_pop_reg (paper section 3.1, notes 3.1.2).
#include "unit_helpers.hpp"

namespace {

using unit::run;

TEST(Registration, PushTakesEffectAtTheSync) {
  // A put into an area pushed in the same superstep is an error (note 3.1.2 (1)) and is skipped;
  // after the sync the same put works.
  const int p = 3;
  std::vector<int> early(p, -1), late(p, -1);
  auto r = run(p, 3, [&] {
    bsp_begin(p);
    int x = -1;
    const int v = 100 + bsp_pid();
    bsp_push_reg(&x, sizeof x);
    if (bsp_pid() == 0) bsp_put(1, &v, &x, 0, sizeof v);  // not yet registered
    bsp_sync();
    early[bsp_pid()] = x;
    bsp_put((bsp_pid() + 1) % p, &v, &x, 0, sizeof v);
    bsp_sync();
    late[bsp_pid()] = x;
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-not-active"), 1u) << r.summary();
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(early, std::vector<int>(p, -1)) << "the early put must be skipped";
  for (int i = 0; i < p; ++i) EXPECT_EQ(late[i], 100 + (i + p - 1) % p);
}

TEST(Registration, AddressesDifferPerProcess) {
  // x lives on each process's own stack: different addresses, one slot.
  const int p = 5;
  for (auto seed : unit::seeds(5)) {
    std::vector<int> got(p, -1);
    std::vector<const void*> addr(p);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int pad[3] = {0, 0, 0};
      int x = -1;
      (void)pad;
      addr[bsp_pid()] = &x;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      int v = bsp_pid() * 10;
      bsp_put((bsp_pid() + 1) % p, &v, &x, 0, sizeof v);
      bsp_sync();
      got[bsp_pid()] = x;
      bsp_pop_reg(&x);
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) EXPECT_EQ(got[i], ((i + p - 1) % p) * 10) << "seed " << seed;
    EXPECT_NE(addr[0], addr[1]);
  }
}

TEST(Registration, SizesMayDifferAndBoundsUseTheTargetSize) {
  // pid 0 registers 4 bytes, pid 1 registers 16 bytes of the same slot.
  std::vector<std::vector<int>> buf(2, std::vector<int>(4, 0));
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), bsp_pid() == 0 ? 4 : 16);
    bsp_sync();
    int src[4] = {1, 2, 3, 4};
    if (bsp_pid() == 0) bsp_put(1, src, mine.data(), 0, 16);  // 16 <= 16 on pid 1: fine
    if (bsp_pid() == 1) bsp_put(0, src, mine.data(), 0, 16);  // 16 > 4 on pid 0: bounds
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bounds-put"), 1u) << r.summary();
  EXPECT_EQ(buf[1], (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(buf[0], (std::vector<int>{0, 0, 0, 0})) << "an out-of-bounds put must be skipped";
  const bspcheck::Finding* f = unit::find(r, "bounds-put");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(unit::contains(f->processes, 1)) << r.summary();
}

TEST(Registration, NullRegistrationIsUnregisteredOnThatProcess) {
  // Note 3.1.2 (5): pid 1 registers NULL; puts to pid 1 through the slot are errors,
  // puts to the others work.
  const int p = 3;
  std::vector<int> x(p, -1);
  auto r = run(p, 7, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    bsp_push_reg(me == 1 ? nullptr : static_cast<void*>(&x[me]), sizeof(int));
    bsp_sync();
    if (me == 0) {
      int v = 55;
      bsp_put(2, &v, &x[0], 0, sizeof v);  // fine
      int w = 66;
      bsp_put(1, &w, &x[0], 0, sizeof w);  // unregistered on pid 1
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(x[2], 55);
  EXPECT_EQ(x[1], -1);
  EXPECT_EQ(x[0], -1);
}

TEST(Registration, ZeroSizeRegistrationAllowsOnlyZeroBytes) {
  // Note 3.1.2 (6): half duplex with size 0.
  std::vector<int> x(2, -1);
  auto r = run(2, 2, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], me == 1 ? 0 : static_cast<int>(sizeof(int)));
    bsp_sync();
    int v = 9;
    if (me == 0) {
      bsp_put(1, &v, &x[0], 0, 0);          // zero bytes: nothing, no error
      bsp_put(1, &v, &x[0], 0, sizeof v);   // bounds on pid 1
    } else {
      bsp_put(0, &v, &x[1], 0, sizeof v);   // pid 0 has 4 bytes: fine
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("bounds-put"), 1u) << r.summary();
  EXPECT_EQ(x[1], -1);
  EXPECT_EQ(x[0], 9);
}

TEST(Registration, ReRegisteringSameAddressShadowsAndPopRestores) {
  // buf registered with 4 bytes, then again with 8: the newest slot (8) applies. Popping buf
  // removes the newest slot, restoring the 4-byte registration.
  std::vector<std::vector<int>> buf(2, std::vector<int>(2, 0));
  auto r = run(2, 13, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    int src[2] = {7, 8};
    bsp_push_reg(mine.data(), 4);
    bsp_sync();
    bsp_push_reg(mine.data(), 8);
    bsp_sync();
    if (bsp_pid() == 0) bsp_put(1, src, mine.data(), 0, 8);  // fine: newest slot says 8
    bsp_sync();
    bsp_pop_reg(mine.data());
    bsp_sync();
    int src2[2] = {20, 21};
    if (bsp_pid() == 1) bsp_put(0, src2, mine.data(), 0, 8);  // bounds: back to 4
    bsp_sync();
    if (bsp_pid() == 1) bsp_put(0, src2, mine.data(), 0, 4);  // fine
    bsp_sync();
    bsp_pop_reg(mine.data());
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("bounds-put"), 1u) << r.summary();
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(buf[1], (std::vector<int>{7, 8}));
  EXPECT_EQ(buf[0], (std::vector<int>{20, 0}));
}

TEST(Registration, PutReachesTargetAddressOfMostRecentSlotHoldingCallersAddress) {
  // Slot 1: <&a on 0, &a on 1>. Slot 2: <&a on 0, &b on 1>. A put by 0 naming &a reaches b on 1.
  // After pid 0 pops a and pid 1 pops b (same slot), it reaches a on 1 again.
  std::vector<int> a(2, 0), b(2, 0);
  auto r = run(2, 21, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&a[me], sizeof(int));
    bsp_sync();
    bsp_push_reg(me == 0 ? &a[me] : &b[me], sizeof(int));
    bsp_sync();
    int v = 7;
    if (me == 0) bsp_put(1, &v, &a[0], 0, sizeof v);
    bsp_sync();
    bsp_pop_reg(me == 0 ? &a[me] : &b[me]);
    bsp_sync();
    int w = 9;
    if (me == 0) bsp_put(1, &w, &a[0], 0, sizeof w);
    bsp_sync();
    bsp_pop_reg(&a[me]);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(b[1], 7);
  EXPECT_EQ(a[1], 9);
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(b[0], 0);
}

TEST(Registration, KthPushOnEveryProcessFormsOneSlot) {
  // Two pushes in one superstep, in different orders of *variables* per process: the k-th push
  // forms slot k. pid 0 pushes (x, y); pid 1 pushes (y, x). So pid 0's x pairs with pid 1's y.
  std::vector<int> x(2, 0), y(2, 0);
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    if (me == 0) {
      bsp_push_reg(&x[0], sizeof(int));
      bsp_push_reg(&y[0], sizeof(int));
    } else {
      bsp_push_reg(&y[1], sizeof(int));
      bsp_push_reg(&x[1], sizeof(int));
    }
    bsp_sync();
    int v = 5, w = 6;
    if (me == 0) {
      bsp_put(1, &v, &x[0], 0, sizeof v);  // -> y[1]
      bsp_put(1, &w, &y[0], 0, sizeof w);  // -> x[1]
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(y[1], 5);
  EXPECT_EQ(x[1], 6);
}

TEST(Registration, PopRemovesTheNamedSlotNotTheLast) {
  std::vector<int> x(2, 0), y(2, 0);
  auto r = run(2, 6, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    bsp_push_reg(&y[me], sizeof(int));
    bsp_sync();
    bsp_pop_reg(&x[me]);  // not stack order
    bsp_sync();
    int v = 31, w = 32;
    if (me == 0) {
      bsp_put(1, &v, &y[0], 0, sizeof v);  // y still registered
      bsp_put(1, &w, &x[0], 0, sizeof w);  // x is gone: error, skipped
    }
    bsp_sync();
    bsp_pop_reg(&y[me]);
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(y[1], 31);
  EXPECT_EQ(x[1], 0);
}

TEST(Registration, PopTakesEffectAtTheSyncSoSameSuperstepDrmaWorks) {
  // Note 3.1.2 (2).
  std::vector<int> x(2, 0), y(2, 0);
  auto r = run(2, 8, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    bsp_sync();
    x[me] = 40 + me;
    bsp_sync();
    bsp_pop_reg(&x[me]);
    int v = 50 + me;
    bsp_put(1 - me, &v, &x[me], 0, sizeof v);     // still registered in this superstep
    bsp_get(1 - me, &x[me], 0, &y[me], sizeof v);  // also fine
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(x[0], 51);
  EXPECT_EQ(x[1], 50);
  EXPECT_EQ(y[0], 41);  // get reads before the puts land
  EXPECT_EQ(y[1], 40);
}

TEST(Registration, PoppedAreaIsUnregisteredFromTheNextSuperstep) {
  std::vector<int> x(2, 0), y(2, -1);
  auto r = run(2, 8, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    bsp_sync();
    bsp_pop_reg(&x[me]);
    bsp_sync();
    int v = 77;
    if (me == 0) bsp_put(1, &v, &x[0], 0, sizeof v);
    if (me == 1) bsp_get(0, &x[1], 0, &y[1], sizeof(int));
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-unregistered"), 2u) << r.summary();
  EXPECT_EQ(x[1], 0);
  EXPECT_EQ(y[1], -1);
}

TEST(Registration, RegistrationCanBeReusedAfterPopAndPush) {
  std::vector<int> x(3, 0);
  auto r = run(3, 12, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    for (int round = 0; round < 3; ++round) {
      bsp_push_reg(&x[me], sizeof(int));
      bsp_sync();
      int v = round * 10 + me;
      bsp_put((me + 1) % 3, &v, &x[me], 0, sizeof v);
      bsp_sync();
      bsp_pop_reg(&x[me]);
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(x, (std::vector<int>{22, 20, 21}));
}

TEST(Registration, HeapAndStaticAreasCanBeRegistered) {
  static int stat = 0;  // same address on every process (note 3.1.2 (8)): still must register
  std::vector<int> heap_seen(2, 0);
  int stat_seen = 0;
  auto r = run(2, 19, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    std::vector<int> heap(8, 0);
    bsp_push_reg(heap.data(), 8 * sizeof(int));
    bsp_push_reg(&stat, sizeof stat);
    bsp_sync();
    int v[2] = {3, 4};
    if (me == 0) bsp_put(1, v, heap.data(), 6 * sizeof(int), 2 * sizeof(int));
    int s = 123;
    if (me == 1) bsp_put(1, &s, &stat, 0, sizeof s);
    bsp_sync();
    heap_seen[me] = heap[6] * 10 + heap[7];
    if (me == 0) stat_seen = stat;
    bsp_pop_reg(&stat);
    bsp_pop_reg(heap.data());
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(heap_seen[1], 34);
  EXPECT_EQ(heap_seen[0], 0);
  EXPECT_EQ(stat_seen, 123);
}

// ---------------------------------------------------------------- registration errors

TEST(RegistrationErrors, CountMismatch) {
  std::vector<int> x(3, 0), y(3, 0);
  auto r = run(3, 3, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    if (me == 1) bsp_push_reg(&y[me], sizeof(int));  // only pid 1 pushes twice
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-count-mismatch"), 1u) << r.summary();
}

TEST(RegistrationErrors, PopMismatchFromThePaper) {
  // Paper 3.1: p0 registers x twice, p1 registers x then y; both popping x is an error.
  std::vector<int> x(2, 0), y(2, 0);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    bsp_push_reg(me == 0 ? &x[me] : &y[me], sizeof(int));
    bsp_sync();
    bsp_pop_reg(&x[me]);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-pop-mismatch"), 1u) << r.summary();
}

TEST(RegistrationErrors, PopOfUnknownAddress) {
  std::vector<int> x(2, 0), never(2, 0);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    bsp_sync();
    bsp_pop_reg(&never[me]);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-pop-unknown"), 1u) << r.summary();
}

// A process pops NULL where it never registered NULL: it names no slot (reg-pop-unknown, located
// at its call), not a slot other than the others' (reg-pop-mismatch).
TEST(RegistrationErrors, PopOfNullNeverRegistered) {
  std::vector<long> a(2, 0);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&a[me], sizeof(long));
    bsp_sync();
    bsp_pop_reg(me == 0 ? static_cast<void*>(&a[0]) : nullptr);
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("reg-pop-unknown"), 1u) << r.summary();
  EXPECT_EQ(r.count("reg-pop-mismatch"), 0u) << r.summary();
}

TEST(RegistrationErrors, NegativeSize) {
  // Note 3.1.2 (7).
  std::vector<int> x(2, 0);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    bsp_push_reg(&x[bsp_pid()], -4);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-negative-size"), 1u) << r.summary();
}

TEST(RegistrationErrors, PutIntoNeverRegisteredArea) {
  // Note 3.1.2 (3) / 3.2.4 (1).
  std::vector<int> x(2, -1);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    int v = 1;
    if (bsp_pid() == 0) bsp_put(1, &v, &x[0], 0, sizeof v);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(x, (std::vector<int>{-1, -1}));
}

TEST(RegistrationErrors, InteriorPointerIsNotARegistration) {
  // A put names the registered base address; an address inside the area is not registered.
  std::vector<std::vector<int>> buf(2, std::vector<int>(4, 0));
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), 4 * sizeof(int));
    bsp_sync();
    int v = 5;
    if (bsp_pid() == 0) bsp_put(1, &v, mine.data() + 1, 0, sizeof v);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(buf[1], (std::vector<int>{0, 0, 0, 0}));
}

}  // namespace

namespace {

TEST(RegistrationErrors, DrmaInTheSuperstepOfThePushIsNotActive) {
  std::vector<int> x(2, 5), y(2, -1);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    bsp_push_reg(&x[me], sizeof(int));
    int v = 1;
    if (me == 0) bsp_put(1, &v, &x[0], 0, sizeof v);
    if (me == 1) bsp_get(0, &x[1], 0, &y[1], sizeof(int));
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("reg-not-active"), 2u) << r.summary();
  EXPECT_EQ(x, (std::vector<int>{5, 5}));
  EXPECT_EQ(y[1], -1);
}

TEST(RegistrationErrors, GetFromProcessThatRegisteredNull) {
  std::vector<int> x(3, 7), y(3, -1);
  auto r = run(3, 3, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    bsp_push_reg(me == 2 ? nullptr : &x[me], sizeof(int));
    bsp_sync();
    if (me == 0) {
      bsp_get(1, &x[0], 0, &y[0], sizeof(int));  // fine
      bsp_get(2, &x[0], 0, &y[1], sizeof(int));  // NULL on pid 2: unregistered
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(r.count("reg-count-mismatch"), 0u) << "a NULL push still counts as a push";
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(y[0], 7);
  EXPECT_EQ(y[1], -1);
}

TEST(RegistrationErrors, CountMismatchWhenOneProcessDoesNotPush) {
  std::vector<int> x(3, 0);
  auto r = run(3, 3, [&] {
    bsp_begin(3);
    if (bsp_pid() != 1) bsp_push_reg(&x[bsp_pid()], sizeof(int));
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("reg-count-mismatch"), 1u) << r.summary();
}

}  // namespace

namespace {

TEST(Registration, TwoPushesOfTheSameAddressInOneSuperstep) {
  // Both pushes form slots in order; the second (8 bytes) is the most recent. One pop removes
  // it and the 4-byte registration remains.
  std::vector<std::vector<int>> buf(2, std::vector<int>(2, 0));
  auto r = run(2, 10, [&] {
    bsp_begin(2);
    auto& mine = buf[bsp_pid()];
    bsp_push_reg(mine.data(), 4);
    bsp_push_reg(mine.data(), 8);
    bsp_sync();
    int src[2] = {1, 2};
    if (bsp_pid() == 0) bsp_put(1, src, mine.data(), 0, 8);  // fine
    bsp_pop_reg(mine.data());
    bsp_sync();
    int src2[2] = {3, 4};
    if (bsp_pid() == 1) bsp_put(0, src2, mine.data(), 0, 8);  // bounds: 4 bytes remain
    if (bsp_pid() == 1) bsp_put(0, src2, mine.data(), 0, 4);  // fine
    bsp_sync();
    bsp_pop_reg(mine.data());
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("bounds-put"), 1u) << r.summary();
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(buf[1], (std::vector<int>{1, 2}));
  EXPECT_EQ(buf[0], (std::vector<int>{3, 0}));
}

TEST(Registration, PopOfASlotWithANullEntry) {
  // The process that registered NULL names its participation with NULL when popping.
  std::vector<int> x(3, 0);
  auto r = run(3, 10, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    void* mine = me == 1 ? nullptr : &x[me];
    bsp_push_reg(mine, sizeof(int));
    bsp_sync();
    int v = 4;
    if (me == 0) bsp_put(2, &v, &x[0], 0, sizeof v);
    bsp_pop_reg(mine);
    bsp_sync();
    if (me == 0) bsp_put(2, &v, &x[0], 0, sizeof v);  // popped: unregistered
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("reg-pop-unknown") + r.count("reg-pop-mismatch"), 0u) << r.summary();
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(unit::errors(r), 1u) << r.summary();
  EXPECT_EQ(x, (std::vector<int>{0, 0, 4}));
}

}  // namespace

// ---------------------------------------------------------------- program order at the sync

namespace {

// Pushes x with 2 ints, syncs, then in one superstep pushes x again with 1 int and pops x. In
// program order the pop removes the 1-int registration just pushed and the 2-int one stays.
// Returns the run and whether a put into x's second int succeeded in the next superstep.
bspcheck::RunResult push_then_pop_same_area(std::vector<int>& second) {
  const int p = 2;
  return run(p, 5, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    int x[2] = {0, 0};
    bsp_push_reg(x, 2 * sizeof(int));
    bsp_sync();
    bsp_push_reg(x, sizeof(int));
    bsp_pop_reg(x);  // removes the registration of the line above
    bsp_sync();
    const int v = 70 + me;
    bsp_put(1 - me, &v, x, sizeof(int), sizeof v);  // within the remaining 2-int area
    bsp_sync();
    second[me] = x[1];
    bsp_pop_reg(x);
    bsp_sync();
    bsp_end();
  });
}

}  // namespace

TEST(RegistrationOrder, PopOfAnAreaPushedInTheSameSuperstepRemovesThatPush) {
  std::vector<int> second(2, -1);
  auto r = push_then_pop_same_area(second);
  EXPECT_RUN_OK(r);
  EXPECT_EQ(r.count("bounds-put"), 0u) << "the older 2-int registration must stay\n" << r.summary();
  EXPECT_EQ(r.count("reg-leak"), 0u) << r.summary();
  EXPECT_EQ(second, (std::vector<int>{71, 70}));
  // All-pops-first would keep the 1-int registration instead: a portability warning says so.
  const bspcheck::Finding* f = unit::find(r, "reg-order-portability");
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_EQ(f->severity, bspcheck::Severity::warning);
  EXPECT_EQ(f->processes, (std::vector<int>{0, 1}));
  ASSERT_EQ(f->locations.size(), 4u);  // the push and the pop of each process
  EXPECT_EQ(f->locations[0].call, "bsp_push_reg");
  EXPECT_EQ(f->locations[1].call, "bsp_pop_reg");
  EXPECT_EQ(f->locations[1].line, f->locations[0].line + 1);
  EXPECT_EQ(r.count("reg-order-portability"), 1u) << "one finding per superstep\n" << r.summary();
}

TEST(RegistrationOrder, PushAndPopOfANewAreaInOneSuperstepLeaveNothingRegistered) {
  // Without an older registration, all-pops-first would report an unknown pop; program order
  // cancels the two.
  const int p = 3;
  auto r = run(p, 9, [&] {
    bsp_begin(p);
    int x = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_pop_reg(&x);
    bsp_sync();
    const int v = 1;
    if (bsp_pid() == 0) bsp_put(1, &v, &x, 0, sizeof v);  // x is not registered
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("reg-pop-unknown"), 0u) << r.summary();
  EXPECT_EQ(r.count("reg-unregistered"), 1u) << r.summary();
  EXPECT_EQ(r.count("reg-leak"), 0u) << r.summary();
  EXPECT_EQ(r.count("reg-order-portability"), 1u) << r.summary();
}

TEST(RegistrationOrder, PopThenPushOfTheSameAddressReplacesTheRegistrationWithoutWarning) {
  // Pop first, push second: every order of applying them agrees, so no portability warning; the
  // new (larger) registration is the one in force.
  const int p = 2;
  std::vector<int> second(p, -1);
  auto r = run(p, 11, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    int x[2] = {0, 0};
    bsp_push_reg(x, sizeof(int));
    bsp_sync();
    bsp_pop_reg(x);
    bsp_push_reg(x, 2 * sizeof(int));
    bsp_sync();
    const int v = 80 + me;
    bsp_put(1 - me, &v, x, sizeof(int), sizeof v);
    bsp_sync();
    second[me] = x[1];
    bsp_pop_reg(x);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_TRUE(r.findings.empty()) << r.summary();
  EXPECT_EQ(second, (std::vector<int>{81, 80}));
}

TEST(RegistrationOrder, PushesAndPopsInterleavedFollowProgramOrder) {
  // push a; pop b (older); push b: the pop removes the old b, then the new slots are a, b.
  const int p = 2;
  std::vector<int> got(p, -1);
  auto r = run(p, 13, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    int a = 0, b[2] = {0, 0};
    bsp_push_reg(b, sizeof(int));
    bsp_sync();
    bsp_push_reg(&a, sizeof a);
    bsp_pop_reg(b);
    bsp_push_reg(b, 2 * sizeof(int));
    bsp_sync();
    const int v = 90 + me;
    bsp_put(1 - me, &v, b, sizeof(int), sizeof v);
    bsp_put(1 - me, &v, &a, 0, sizeof v);
    bsp_sync();
    got[me] = b[1] == a ? a : -2;
    bsp_pop_reg(&a);
    bsp_pop_reg(b);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_TRUE(r.findings.empty()) << r.summary();
  EXPECT_EQ(got, (std::vector<int>{91, 90}));
}

TEST(RegistrationOrder, ZeroByteDummyOnSomeProcessesDrawsNoSiteMismatch) {
  // Only process 0 receives: it registers the real area, the others a 0-byte dummy (or NULL) on
  // another line. Legal BSPlib, and the usual idiom: no reg-site-mismatch.
  for (bool null_dummy : {false, true}) {
    const int p = 4;
    std::vector<int> sums(p, 0);
    auto r = run(p, 17, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      char anchor = 0;
      if (me == 0) bsp_push_reg(sums.data(), p * static_cast<int>(sizeof(int)));
      else bsp_push_reg(null_dummy ? nullptr : &anchor, 0);
      bsp_sync();
      const int v = 10 + me;
      // A process that registered NULL cannot name the slot: only the others put.
      if (me == 0 || !null_dummy)
        bsp_put(0, &v, me == 0 ? static_cast<void*>(sums.data()) : &anchor, me * static_cast<int>(sizeof(int)),
                sizeof v);
      bsp_sync();
      bsp_pop_reg(me == 0 ? static_cast<void*>(sums.data()) : (null_dummy ? nullptr : &anchor));
      bsp_sync();
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    EXPECT_EQ(r.count("reg-site-mismatch"), 0u) << (null_dummy ? "NULL" : "0-byte") << " dummy\n" << r.summary();
    EXPECT_TRUE(r.findings.empty()) << r.summary();
    EXPECT_EQ(sums, null_dummy ? (std::vector<int>{10, 0, 0, 0}) : (std::vector<int>{10, 11, 12, 13}));
  }
}
