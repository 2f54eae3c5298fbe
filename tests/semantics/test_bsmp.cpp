// Bulk synchronous message passing: bsp_set_tagsize, bsp_send, bsp_qsize, bsp_get_tag,
// bsp_move, bsp_hpmove (paper section 4).
#include "unit_helpers.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace {

using unit::run;

// ---------------------------------------------------------------- bsp_set_tagsize

TEST(Tagsize, ReturnsThePreviousValueThisSuperstepsLastRequestOrTheValidSize) {
  const int p = 3;
  std::vector<std::array<int, 5>> ret(p);
  auto r = run(p, 4, [&] {
    bsp_begin(p);
    auto& out = ret[bsp_pid()];
    int a = 4;
    bsp_set_tagsize(&a);  // default is 0
    out[0] = a;
    int b = 8;
    bsp_set_tagsize(&b);  // still superstep 0: the previous value is the request (4); the last call (8) wins
    out[1] = b;
    bsp_sync();
    int c = 2;
    bsp_set_tagsize(&c);
    out[2] = c;  // 8
    bsp_sync();
    int d = 0;
    bsp_set_tagsize(&d);
    out[3] = d;  // 2
    bsp_sync();
    int e = 0;
    bsp_set_tagsize(&e);
    out[4] = e;  // 0
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < p; ++i) EXPECT_EQ(ret[i], (std::array<int, 5>{0, 4, 8, 2, 0})) << i;
}

TEST(Tagsize, NewSizeAppliesFromTheNextSuperstepAndQueuedMessagesKeepTheirSize) {
  // s0: set 4, but send with the valid size 0. s1: the message has no tag; set 8, send with
  // tag size 4. s2: those messages carry 4-byte tags although 8 is now valid (note 4.1.2 (2)).
  const int p = 3;
  std::vector<int> s1_status(p, -9), s2_status(p, -9), s2_hp_len(p, -9);
  std::vector<std::array<unsigned char, 8>> s1_tag(p), s2_tag(p), s2_hp_tag(p);
  std::vector<int> s1_payload(p, -1), s2_payload(p, -1);
  std::vector<int> ret1(p, -1);
  auto r = run(p, 6, [&] {
    bsp_begin(p);
    const int me = bsp_pid(), to = (me + 1) % p;
    int ts = 4;
    bsp_set_tagsize(&ts);
    unsigned int tag = 0xAABBCCDDu;
    int payload = 10 + me;
    bsp_send(to, &tag, &payload, sizeof payload);
    bsp_sync();
    // s1
    std::array<unsigned char, 8> tb;
    tb.fill(0x5A);
    int st = -9;
    bsp_get_tag(&st, tb.data());
    s1_status[me] = st;
    s1_tag[me] = tb;
    int pl = -1;
    bsp_move(&pl, sizeof pl);
    s1_payload[me] = pl;
    int ts8 = 8;
    bsp_set_tagsize(&ts8);
    ret1[me] = ts8;  // 4
    unsigned int tag2 = 0x01020304u + static_cast<unsigned>(me);
    int payload2 = 20 + me;
    bsp_send(to, &tag2, &payload2, sizeof payload2);  // tag size 4 is valid now
    bsp_sync();
    // s2
    tb.fill(0x5A);
    st = -9;
    bsp_get_tag(&st, tb.data());
    s2_status[me] = st;
    s2_tag[me] = tb;
    void* tp = nullptr;
    void* pp = nullptr;
    int len = bsp_hpmove(&tp, &pp);
    s2_hp_len[me] = len;
    if (len >= 0 && tp != nullptr && pp != nullptr) {
      std::array<unsigned char, 8> h;
      h.fill(0x5A);
      std::memcpy(h.data(), tp, 4);
      s2_hp_tag[me] = h;
      std::memcpy(&s2_payload[me], pp, sizeof(int));
    }
    bsp_sync();
    int z = 0;
    bsp_set_tagsize(&z);
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  std::array<unsigned char, 8> untouched;
  untouched.fill(0x5A);
  for (int i = 0; i < p; ++i) {
    const int from = (i + p - 1) % p;
    EXPECT_EQ(s1_status[i], static_cast<int>(sizeof(int)));
    EXPECT_EQ(s1_tag[i], untouched) << "a message sent with tag size 0 has no tag bytes";
    EXPECT_EQ(s1_payload[i], 10 + from);
    EXPECT_EQ(ret1[i], 4);
    EXPECT_EQ(s2_status[i], static_cast<int>(sizeof(int)));
    std::array<unsigned char, 8> want;
    want.fill(0x5A);
    unsigned int t = 0x01020304u + static_cast<unsigned>(from);
    std::memcpy(want.data(), &t, 4);
    EXPECT_EQ(s2_tag[i], want) << "exactly 4 tag bytes must be copied";
    EXPECT_EQ(s2_hp_len[i], static_cast<int>(sizeof(int)));
    EXPECT_EQ(s2_hp_tag[i], want);
    EXPECT_EQ(s2_payload[i], 20 + from);
  }
}

TEST(TagsizeErrors, DifferentSizesOnDifferentProcesses) {
  auto r = run(3, 4, [&] {
    bsp_begin(3);
    int ts = bsp_pid() == 2 ? 8 : 4;
    bsp_set_tagsize(&ts);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("tagsize-mismatch"), 1u) << r.summary();
}

// ---------------------------------------------------------------- bsp_send / bsp_qsize

TEST(Send, MessagesAreVisibleInTheNextSuperstepOnlyAndVanishIfUnread) {
  const int p = 4;
  for (auto seed : unit::seeds(10)) {
    std::vector<std::array<int, 6>> q(p);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      auto& o = q[me];
      int payload = me;
      bsp_send(me, nullptr, &payload, sizeof payload);
      bsp_send((me + 1) % p, nullptr, &payload, sizeof payload);
      (void)bsp_pid();
      bsp_qsize(&o[0], &o[1]);  // nothing from the previous superstep
      bsp_sync();
      bsp_qsize(&o[2], &o[3]);  // two messages, not read
      bsp_sync();
      bsp_qsize(&o[4], &o[5]);  // vanished at the sync
      bsp_end();
    });
    EXPECT_TRUE(r.ok()) << r.summary();  // unread messages are at most a warning
    for (int i = 0; i < p; ++i)
      EXPECT_EQ(q[i], (std::array<int, 6>{0, 0, 2, 8, 0, 0})) << "seed " << seed;
  }
}

TEST(Send, TagAndPayloadAreCopiedAtTheCall) {
  std::vector<std::pair<int, int>> got(2, {-1, -1});
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    int tag = 7 + bsp_pid(), pl = 70 + bsp_pid();
    bsp_send(1 - bsp_pid(), &tag, &pl, sizeof pl);
    tag = -1;
    pl = -1;
    bsp_sync();
    int st, t = 0, v = 0;
    bsp_get_tag(&st, &t);
    bsp_move(&v, sizeof v);
    got[bsp_pid()] = {t, v};
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(got[0], std::make_pair(8, 71));
  EXPECT_EQ(got[1], std::make_pair(7, 70));
}

class SendAll : public ::testing::TestWithParam<int> {};

TEST_P(SendAll, EveryMessageArrivesExactlyOnceWithItsTag) {
  // Each process sends k messages (k = 1 + pid) to every process; each receiver drains its queue
  // with get_tag/move and must get exactly the multiset sent to it.
  const int p = GetParam();
  for (auto seed : unit::seeds(3)) {
    std::vector<std::multiset<std::pair<int, int>>> recv(p);
    std::vector<int> nmsg(p, -1), nbytes(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      int ts = sizeof(int);
      bsp_set_tagsize(&ts);
      bsp_sync();
      for (int to = 0; to < p; ++to)
        for (int k = 0; k <= me; ++k) {
          int tag = me * 100 + k;
          std::vector<int> pl(k + 1, to);  // payload length (k+1) ints
          bsp_send(to, &tag, pl.data(), static_cast<int>(pl.size() * sizeof(int)));
        }
      bsp_sync();
      bsp_qsize(&nmsg[me], &nbytes[me]);
      for (;;) {
        int st = -5, tag = -5;
        bsp_get_tag(&st, &tag);
        if (st < 0) break;
        std::vector<int> buf(st / sizeof(int) + 1, -7);
        bsp_move(buf.data(), st);
        bool all_me = true;
        for (int i = 0; i < st / static_cast<int>(sizeof(int)); ++i) all_me &= buf[i] == me;
        EXPECT_TRUE(all_me);
        recv[me].insert({tag, st});
      }
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    for (int i = 0; i < p; ++i) {
      std::multiset<std::pair<int, int>> want;
      int bytes = 0;
      for (int from = 0; from < p; ++from)
        for (int k = 0; k <= from; ++k) {
          want.insert({from * 100 + k, (k + 1) * static_cast<int>(sizeof(int))});
          bytes += (k + 1) * sizeof(int);
        }
      EXPECT_EQ(recv[i], want) << "p=" << p << " pid " << i;
      EXPECT_EQ(nmsg[i], static_cast<int>(want.size()));
      EXPECT_EQ(nbytes[i], bytes) << "accumulated payload bytes (tags excluded)";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Bsmp, SendAll, ::testing::Values(1, 2, 3, 5, 8));

TEST(Send, EmptyMessagesAreStillSent) {
  // Note 4.2.2 (2),(3): payload 0, tag 0, both 0; null pointers allowed for zero sizes.
  std::vector<std::array<int, 8>> o(2);
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    const int me = bsp_pid();
    auto& out = o[me];
    bsp_send(1 - me, nullptr, nullptr, 0);  // tag size 0, payload 0
    int pl = 5;
    bsp_send(1 - me, nullptr, &pl, sizeof pl);  // tag size 0, payload 4
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    bsp_qsize(&out[0], &out[1]);  // 2 messages, 4 bytes
    int a = 0, b = 0;
    bsp_move(nullptr, 0);
    bsp_move(nullptr, 0);
    bsp_qsize(&a, &b);
    out[2] = a;
    int tag = 33;
    bsp_send(1 - me, &tag, nullptr, 0);  // tag 4, payload 0
    bsp_sync();
    bsp_qsize(&out[3], &out[4]);  // 1 message, 0 bytes
    int st = -9, t = 0;
    bsp_get_tag(&st, &t);
    out[5] = st;
    out[6] = t;
    void *tp = nullptr, *pp = nullptr;
    out[7] = bsp_hpmove(&tp, &pp);
    if (tp == nullptr || *static_cast<int*>(tp) != 33) out[6] = -100;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(o[i], (std::array<int, 8>{2, 4, 0, 1, 0, 0, 33, 0})) << "pid " << i;
}

TEST(Send, ZeroLengthMessageWithZeroTagSizeIsCountedAndStatusIsZero) {
  std::vector<std::array<int, 4>> o(3);
  auto r = run(3, 9, [&] {
    bsp_begin(3);
    for (int t = 0; t < 3; ++t) bsp_send(t, nullptr, nullptr, 0);
    bsp_sync();
    auto& out = o[bsp_pid()];
    bsp_qsize(&out[0], &out[1]);
    int st = -9, dummy_tag = 0;
    bsp_get_tag(&st, &dummy_tag);
    out[2] = st;
    void *tp, *pp;
    int n = 0;
    while (bsp_hpmove(&tp, &pp) == 0) ++n;
    out[3] = n;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(o[i], (std::array<int, 4>{3, 0, 0, 3}));
}

TEST(SendErrors, BadPid) {
  std::vector<int> n(2, -1);
  auto r = run(2, 4, [&] {
    bsp_begin(2);
    int pl = 1;
    bsp_send(2, nullptr, &pl, sizeof pl);
    bsp_send(-1, nullptr, &pl, sizeof pl);
    bsp_sync();
    int b;
    bsp_qsize(&n[bsp_pid()], &b);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.count("bad-pid"), 4u) << r.summary();
  EXPECT_EQ(n, (std::vector<int>{0, 0}));
}

// ---------------------------------------------------------------- bsp_qsize

TEST(Qsize, DecreasesAfterMoveNotAfterGetTag) {
  std::vector<std::vector<std::pair<int, int>>> trace(1);
  auto r = run(4, 12, [&] {
    bsp_begin(4);
    const int me = bsp_pid();
    std::vector<char> pl(3 * me + 1, 'x');  // 1, 4, 7, 10 bytes
    bsp_send(0, nullptr, pl.data(), static_cast<int>(pl.size()));
    bsp_sync();
    if (me == 0) {
      auto& t = trace[0];
      int n, b;
      bsp_qsize(&n, &b);
      t.push_back({n, b});
      for (int k = 0; k < 4; ++k) {
        int st, dummy_tag;
        bsp_get_tag(&st, &dummy_tag);
        bsp_qsize(&n, &b);
        t.push_back({n, b});  // unchanged by get_tag
        char buf[16];
        bsp_move(buf, sizeof buf);
        int n2, b2;
        bsp_qsize(&n2, &b2);
        t.push_back({n2, b2});
        if (n2 != n - 1 || b2 != b - st) t.push_back({-1000, st});
      }
    }
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  const auto& t = trace[0];
  ASSERT_EQ(t.size(), 9u) << "qsize did not decrease by one message and its length per move";
  EXPECT_EQ(t[0], std::make_pair(4, 22));
  EXPECT_EQ(t[1], std::make_pair(4, 22));
  EXPECT_EQ(t[8], std::make_pair(0, 0));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(t[1 + 2 * k].first, 4 - k);
}

// ---------------------------------------------------------------- bsp_get_tag

TEST(GetTag, EmptyQueueGivesMinusOneAndLeavesTagUnchanged) {
  std::vector<std::pair<int, long long>> o(3);
  auto r = run(3, 5, [&] {
    bsp_begin(3);
    int ts = sizeof(long long);
    bsp_set_tagsize(&ts);
    bsp_sync();
    int st = 77;
    long long tag = 0x1234567890LL;
    bsp_get_tag(&st, &tag);
    o[bsp_pid()] = {st, tag};
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(o[i], std::make_pair(-1, 0x1234567890LL));
}

TEST(GetTag, RepeatableUntilMove) {
  // Note 4.5.3 (2).
  std::vector<std::vector<std::pair<int, int>>> seen(2);
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    if (bsp_pid() == 1) {
      for (int k = 0; k < 3; ++k) {
        int tag = 40 + k;
        std::vector<char> pl(k + 2, 'a');
        bsp_send(0, &tag, pl.data(), static_cast<int>(pl.size()));
      }
    }
    bsp_sync();
    if (bsp_pid() == 0) {
      for (int k = 0; k < 3; ++k) {
        int st1 = -9, t1 = -9, st2 = -9, t2 = -9;
        bsp_get_tag(&st1, &t1);
        bsp_get_tag(&st2, &t2);
        if (st1 != st2 || t1 != t2) seen[0].push_back({-1, -1});
        seen[0].push_back({t1, st1});
        char buf[8];
        bsp_move(buf, sizeof buf);
      }
      int st = 0, t = 555;
      bsp_get_tag(&st, &t);
      seen[0].push_back({t, st});
    }
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  ASSERT_EQ(seen[0].size(), 4u);
  std::multiset<std::pair<int, int>> got(seen[0].begin(), seen[0].begin() + 3);
  EXPECT_EQ(got, (std::multiset<std::pair<int, int>>{{40, 2}, {41, 3}, {42, 4}}));
  EXPECT_EQ(seen[0][3], std::make_pair(555, -1));
}

// ---------------------------------------------------------------- bsp_move

TEST(Move, TruncatesToReceptionBytes) {
  // Note 4.5.3 (3): at most reception_nbytes are copied; the rest of the buffer is untouched.
  std::string got1, got2;
  int q_after = -1;
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    if (bsp_pid() == 1) {
      bsp_send(0, nullptr, "ABCDEFGH", 8);
      bsp_send(0, nullptr, "ABCDEFGH", 8);
    }
    bsp_sync();
    if (bsp_pid() == 0) {
      char buf[12];
      std::memset(buf, '.', sizeof buf);
      bsp_move(buf, 3);
      got1.assign(buf, sizeof buf);
      std::memset(buf, '.', sizeof buf);
      bsp_move(buf, 12);  // larger reception area than the payload: 8 bytes copied
      got2.assign(buf, sizeof buf);
      int b;
      bsp_qsize(&q_after, &b);
    }
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();  // truncation is legal (at most a warning)
  EXPECT_EQ(got1, "ABC.........");
  EXPECT_EQ(got2, "ABCDEFGH....");
  EXPECT_EQ(q_after, 0);
}

TEST(Move, ZeroReceptionJustRemovesTheMessage) {
  std::vector<int> o(4, -1);
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int v = 9;
    if (bsp_pid() == 1) {
      bsp_send(0, nullptr, &v, sizeof v);
      bsp_send(0, nullptr, &v, sizeof v);
    }
    bsp_sync();
    if (bsp_pid() == 0) {
      int buf = -1;
      bsp_move(&buf, 0);
      o[0] = buf;
      int n, b;
      bsp_qsize(&n, &b);
      o[1] = n;
      o[2] = b;
      bsp_move(&buf, sizeof buf);
      o[3] = buf;
    }
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(o, (std::vector<int>{-1, 1, 4, 9}));
}

TEST(Move, GetTagThenMovePairsTagWithItsOwnPayload) {
  // The paper's receive loop: each tag must match the payload moved right after it.
  const int p = 4;
  for (auto seed : unit::seeds(10)) {
    int mismatches = 0, total = 0;
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      int ts = sizeof(int);
      bsp_set_tagsize(&ts);
      bsp_sync();
      for (int k = 0; k < 5; ++k) {
        int tag = bsp_pid() * 10 + k;
        int pl = tag * 3;
        bsp_send(0, &tag, &pl, sizeof pl);
      }
      bsp_sync();
      if (bsp_pid() == 0) {
        int n, b;
        bsp_qsize(&n, &b);
        for (int i = 0; i < n; ++i) {
          int st, tag, pl;
          bsp_get_tag(&st, &tag);
          bsp_move(&pl, sizeof pl);
          ++total;
          if (pl != tag * 3) ++mismatches;
        }
      }
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    EXPECT_EQ(total, p * 5);
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(Move, EmptyQueueLeavesPayloadUntouched) {
  int buf = 1234;
  auto r = run(1, 5, [&] {
    bsp_begin(1);
    bsp_sync();
    bsp_move(&buf, sizeof buf);
    bsp_end();
  });
  EXPECT_FALSE(r.aborted) << r.summary();
  EXPECT_EQ(r.count("crash"), 0u);
  EXPECT_EQ(buf, 1234);
}

// ---------------------------------------------------------------- bsp_hpmove

TEST(HpMove, MinusOneOnEmptyQueue) {
  std::vector<int> o(2, 0);
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    void* tp = reinterpret_cast<void*>(0x1);
    void* pp = reinterpret_cast<void*>(0x1);
    o[bsp_pid()] = bsp_hpmove(&tp, &pp);
    bsp_sync();
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(o, (std::vector<int>{-1, -1}));
}

TEST(HpMove, PointersStayValidUntilTheEndOfTheSuperstep) {
  const int p = 4;
  for (auto seed : unit::seeds(5)) {
    std::vector<std::multiset<std::pair<int, std::string>>> got(p);
    std::vector<int> qafter(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      int ts = sizeof(int);
      bsp_set_tagsize(&ts);
      bsp_sync();
      for (int to = 0; to < p; ++to) {
        int tag = me * 10 + to;
        std::string pl = "msg-" + std::to_string(me) + "-" + std::to_string(to);
        bsp_send(to, &tag, pl.data(), static_cast<int>(pl.size()));
      }
      bsp_sync();
      std::vector<std::tuple<int, void*, void*>> ptrs;
      for (;;) {
        void *tp = nullptr, *pp = nullptr;
        int len = bsp_hpmove(&tp, &pp);
        if (len < 0) break;
        ptrs.emplace_back(len, tp, pp);
      }
      int n, b;
      bsp_qsize(&n, &b);
      qafter[me] = n;
      // More BSPlib calls (switch points, other processes run) before reading the storage.
      (void)bsp_pid();
      (void)bsp_nprocs();
      int dummy = 0;
      bsp_send(me, &dummy, &dummy, sizeof dummy);  // tag size is 4 here
      for (auto& [len, tp, pp] : ptrs) {
        int tag;
        std::memcpy(&tag, tp, sizeof tag);
        got[me].insert({tag, std::string(static_cast<const char*>(pp), len)});
      }
      bsp_sync();
      bsp_end();
    });
    EXPECT_TRUE(r.ok()) << r.summary();
    for (int i = 0; i < p; ++i) {
      std::multiset<std::pair<int, std::string>> want;
      for (int from = 0; from < p; ++from)
        want.insert({from * 10 + i, "msg-" + std::to_string(from) + "-" + std::to_string(i)});
      EXPECT_EQ(got[i], want) << "seed " << seed << " pid " << i;
      EXPECT_EQ(qafter[i], 0);
    }
  }
}

TEST(HpMove, ReturnsPayloadLengthAndAdvances) {
  std::vector<int> lens;
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    if (bsp_pid() == 1) {
      char data[40] = {};
      bsp_send(0, nullptr, data, 17);
      bsp_send(0, nullptr, data, 0);
      bsp_send(0, nullptr, data, 40);
    }
    bsp_sync();
    if (bsp_pid() == 0) {
      void *tp, *pp;
      int n;
      while ((n = bsp_hpmove(&tp, &pp)) >= 0) lens.push_back(n);
    }
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  std::sort(lens.begin(), lens.end());
  EXPECT_EQ(lens, (std::vector<int>{0, 17, 40}));
}

// ---------------------------------------------------------------- paper example 4.5.2

TEST(Bsmp, AllGatherSparseVecFromThePaper) {
  const int p = 4, n_over_p = 5;
  for (auto seed : unit::seeds(5)) {
    std::vector<std::map<int, float>> result(p);
    std::vector<int> prev_tag(p, -1);
    auto r = run(p, seed, [&] {
      bsp_begin(p);
      const int me = bsp_pid();
      std::vector<float> dense(n_over_p, 0.0f);
      for (int i = 0; i < n_over_p; ++i)
        if ((me + i) % 3 == 0) dense[i] = static_cast<float>(me * n_over_p + i) + 0.5f;
      // all_gather_sparse_vec, as in the paper
      int global_idx, i, j, tag_size, np = bsp_nprocs(), nonzeros, nonzeros_size, status;
      int* sparse_ivec = nullptr;
      float* sparse = nullptr;
      tag_size = sizeof(int);
      bsp_set_tagsize(&tag_size);
      bsp_sync();
      for (i = 0; i < n_over_p; i++)
        if (dense[i] != 0.0f) {
          global_idx = (n_over_p * bsp_pid() + i);
          for (j = 0; j < np; j++) bsp_send(j, &global_idx, &dense[i], sizeof(float));
        }
      bsp_sync();
      bsp_qsize(&nonzeros, &nonzeros_size);
      if (nonzeros > 0) {
        sparse = static_cast<float*>(calloc(nonzeros, sizeof(float)));
        sparse_ivec = static_cast<int*>(calloc(nonzeros, sizeof(int)));
        if (sparse == NULL || sparse_ivec == NULL) bsp_abort("Unable to allocate memory");
        for (i = 0; i < nonzeros; i++) {
          bsp_get_tag(&status, &sparse_ivec[i]);
          if (status != sizeof(float)) bsp_abort("Should never get here");
          bsp_move(&sparse[i], sizeof(float));
        }
      }
      bsp_set_tagsize(&tag_size);
      prev_tag[me] = tag_size;
      for (i = 0; i < nonzeros; i++) result[me][sparse_ivec[i]] = sparse[i];
      if (nonzeros_size != nonzeros * static_cast<int>(sizeof(float))) result[me][-1] = 0;
      free(sparse);
      free(sparse_ivec);
      bsp_end();
    });
    EXPECT_RUN_OK(r);
    std::map<int, float> want;
    for (int q = 0; q < p; ++q)
      for (int i = 0; i < n_over_p; ++i)
        if ((q + i) % 3 == 0) want[q * n_over_p + i] = static_cast<float>(q * n_over_p + i) + 0.5f;
    for (int q = 0; q < p; ++q) {
      EXPECT_EQ(result[q], want) << "pid " << q;
      EXPECT_EQ(prev_tag[q], static_cast<int>(sizeof(int)));
    }
  }
}

}  // namespace

namespace {

TEST(Send, PartlyReadQueueVanishesAtTheNextSync) {
  std::vector<std::array<int, 4>> o(3);
  auto r = run(3, 14, [&] {
    bsp_begin(3);
    const int me = bsp_pid();
    for (int k = 0; k < 3; ++k) bsp_send(me, nullptr, &k, sizeof k);
    bsp_sync();
    int v = -1;
    bsp_move(&v, sizeof v);  // read one of three
    int n, b;
    bsp_qsize(&n, &b);
    o[me][0] = n;
    o[me][1] = b;
    int w = 9;
    bsp_send((me + 1) % 3, nullptr, &w, sizeof w);  // one new message for the next superstep
    bsp_sync();
    bsp_qsize(&n, &b);
    o[me][2] = n;
    o[me][3] = b;
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(o[i], (std::array<int, 4>{2, 8, 1, 4})) << "pid " << i;
}

TEST(HpMove, InterleavesWithGetTagMoveAndQsize) {
  // hpmove and move consume from the same queue; qsize follows both.
  std::vector<int> trace;
  std::multiset<int> got;
  auto r = run(2, 15, [&] {
    bsp_begin(2);
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    if (bsp_pid() == 1)
      for (int k = 0; k < 4; ++k) {
        int pl = 100 + k;
        bsp_send(0, &k, &pl, sizeof pl);
      }
    bsp_sync();
    if (bsp_pid() == 0) {
      int n, b, st, tag, pl;
      for (int k = 0; k < 4; ++k) {
        bsp_qsize(&n, &b);
        trace.push_back(n);
        trace.push_back(b);
        if (k % 2 == 0) {
          void *tp, *pp;
          int len = bsp_hpmove(&tp, &pp);
          std::memcpy(&tag, tp, sizeof tag);
          std::memcpy(&pl, pp, sizeof pl);
          if (len != 4) trace.push_back(-len);
        } else {
          bsp_get_tag(&st, &tag);
          bsp_move(&pl, sizeof pl);
          if (st != 4) trace.push_back(-st);
        }
        if (pl != 100 + tag) trace.push_back(-1000);
        got.insert(tag);
      }
      bsp_qsize(&n, &b);
      trace.push_back(n);
      trace.push_back(b);
      void *tp, *pp;
      trace.push_back(bsp_hpmove(&tp, &pp));
    }
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  EXPECT_EQ(trace, (std::vector<int>{4, 16, 3, 12, 2, 8, 1, 4, 0, 0, -1}));
  EXPECT_EQ(got, (std::multiset<int>{0, 1, 2, 3}));
}

TEST(TagsizeErrors, CalledByOnlySomeProcesses) {
  // Note 4.1.2 (3): all processes, same argument, same superstep.
  auto r = run(3, 4, [&] {
    bsp_begin(3);
    if (bsp_pid() == 0) {
      int ts = 4;
      bsp_set_tagsize(&ts);
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.count("tagsize-mismatch"), 1u) << r.summary();
}

TEST(Bsmp, ManyProcessesAllToAll) {
  const int p = 24;
  std::vector<int> sums(p, -1), counts(p, -1);
  auto r = run(p, 31, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    for (int to = 0; to < p; ++to) {
      int v = me * p + to;
      bsp_send(to, nullptr, &v, sizeof v);
    }
    bsp_sync();
    int n, b, s = 0;
    bsp_qsize(&n, &b);
    counts[me] = n;
    void *tp, *pp;
    while (bsp_hpmove(&tp, &pp) >= 0) s += *static_cast<int*>(pp);
    sums[me] = s;
    bsp_end();
  });
  EXPECT_RUN_OK(r);
  for (int i = 0; i < p; ++i) {
    EXPECT_EQ(counts[i], p);
    EXPECT_EQ(sums[i], p * (p - 1) / 2 * p + p * i);
  }
}

}  // namespace
