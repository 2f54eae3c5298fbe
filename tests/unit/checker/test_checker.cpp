// The rules decided by the checker over several calls: collisions, unbuffered-operation hazards,
// unread messages, truncated moves, registration sites and leaks, level-1 hygiene, and the
// h-relation statistics. Each rule has a firing case and a clean twin.
#include <bspcheck/hygiene.hpp>

#include "checker/checker.hpp"

#include "unit_helpers.hpp"

using unit::find;
using unit::run;

namespace {

// Two processes put different values into the same int on process 0.
void colliding_puts(bool same_data) {
  bsp_begin(3);
  int x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  int v = same_data ? 7 : bsp_pid();
  if (bsp_pid() != 0) bsp_put(0, &v, &x, 0, sizeof v);
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
}

// Processes 1..7 each put 40 ints into their own slice of process 0's array, in ascending or
// descending order. Before that, processes 1 and 7 put different values into a[0], and process 4
// puts into a[1]. The barrier orders the writes by merging each process's ascending run (three
// runs: a[1] and a[0] break them before processes 4 and 7), or sorts them (descending: a run per
// write). A run left out of the merge (the odd one, last) would hide the collision.
void many_writers(bool descending) {
  bsp_begin(8);
  constexpr int kSlice = 40;
  std::vector<int> a(8 * kSlice, 0);
  bsp_push_reg(a.data(), static_cast<int>(a.size() * sizeof(int)));
  bsp_sync();
  const int me = bsp_pid();
  if (me == 1 || me == 7) bsp_put(0, &me, a.data(), 0, sizeof(int));
  if (me == 4) bsp_put(0, &me, a.data(), sizeof(int), sizeof(int));
  if (me != 0)
    for (int k = 0; k < kSlice; ++k) {
      const int i = descending ? kSlice - 1 - k : k;
      bsp_put(0, &me, a.data(), static_cast<int>((me * kSlice + i) * sizeof(int)), sizeof(int));
    }
  bsp_sync();
  bsp_pop_reg(a.data());
  bsp_end();
}

// Of p processes only the last two put, different values into the same int of process 0: writers
// too sparse to group by (the checker's table per writer would hold far more entries than writes).
void last_two_of_many_collide(int p) {
  bsp_begin(p);
  int x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int me = bsp_pid();
  if (me >= p - 2) bsp_put(0, &me, &x, 0, sizeof me);
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
}

// Partly overlapping puts into process 0's 16 bytes, compared only where they overlap: process 1
// puts 8 bytes at offset 0, process 2 puts 4 bytes at offset `at`, process 3 puts 12 bytes at
// offset 4 (a write of more than 8 bytes: its payload is compared, where the small ones carry
// their bytes). Each write agrees with the others in the overlap unless process `odd` changes its
// byte at offset 6 (1 or 2; 3 changes its byte 9, which only its own write covers; 0: none).
void partly_overlapping_puts(int at, int odd) {
  bsp_begin(4);
  unsigned char area[16] = {};
  bsp_push_reg(area, sizeof area);
  bsp_sync();
  const int me = bsp_pid();
  unsigned char mine[16];
  for (int i = 0; i < 16; ++i) mine[i] = static_cast<unsigned char>(100 + i);
  if (me == odd) mine[me == 3 ? 9 : 6] ^= 0xff;
  if (me == 1) bsp_put(0, mine, area, 0, 8);
  if (me == 2) bsp_put(0, mine + at, area, at, 4);
  if (me == 3) bsp_put(0, mine + 4, area, 4, 12);
  bsp_sync();
  bsp_pop_reg(area);
  bsp_end();
}

}  // namespace

TEST(Checker, PartlyOverlappingPutsAreComparedOnlyWhereTheyOverlap) {
  for (const int at : {4, 6})
    for (const int odd : {0, 1, 2, 3})
      for (std::uint64_t seed : unit::seeds(3)) {
        auto r = run(4, seed, [at, odd] { partly_overlapping_puts(at, odd); });
        const std::string what = "at " + std::to_string(at) + ", odd " + std::to_string(odd) + "\n" + r.summary();
        // Byte 6 is written by all three; byte 9 by process 3 alone (and by 2 at offset 6).
        const bool differs = odd == 1 || odd == 2 || (odd == 3 && at == 6);
        EXPECT_EQ(r.count("put-collision") > 0, differs) << what;
        if (odd == 1 && differs) {
          const bspcheck::Finding* f = find(r, "put-collision");
          ASSERT_NE(f, nullptr) << what;
          EXPECT_TRUE(unit::contains(f->processes, 1)) << what;
        }
      }
}

TEST(Checker, OneCollisionAmongManyWritersIsFoundWhateverTheirOrder) {
  for (const bool descending : {false, true})
    for (std::uint64_t seed : unit::seeds(5)) {
      auto r = run(8, seed, [descending] { many_writers(descending); });
      EXPECT_EQ(r.count("put-collision"), 1u) << (descending ? "descending\n" : "ascending\n") << r.summary();
      const bspcheck::Finding* f = find(r, "put-collision");
      ASSERT_NE(f, nullptr);
      EXPECT_EQ(f->processes, (std::vector<int>{0, 1, 7})) << r.summary();
    }
}

TEST(Checker, ACollisionOfTwoWritersAmongManyProcessesIsFound) {
  for (std::uint64_t seed : unit::seeds(3)) {
    auto r = run(300, seed, [] { last_two_of_many_collide(300); });
    EXPECT_EQ(r.count("put-collision"), 1u) << r.summary();
    const bspcheck::Finding* f = find(r, "put-collision");
    ASSERT_NE(f, nullptr) << r.summary();
    EXPECT_EQ(f->processes, (std::vector<int>{0, 298, 299})) << r.summary();
  }
}

TEST(Checker, PutCollisionWithDifferentDataIsAWarningNamingBothSites) {
  for (std::uint64_t seed : unit::seeds(10)) {
    auto r = run(3, seed, [] { colliding_puts(false); });
    const bspcheck::Finding* f = find(r, "put-collision");
    ASSERT_NE(f, nullptr) << r.summary();
    EXPECT_EQ(f->severity, bspcheck::Severity::warning);
    EXPECT_EQ(f->locations.size(), 2u);
    EXPECT_TRUE(unit::contains(f->processes, 0)) << r.summary();
    EXPECT_TRUE(r.ok()) << "a warning does not fail the run\n" << r.summary();
    // Between two puts the seed picks the winner, and the message says so.
    EXPECT_NE(f->message.find("which bsp_put's data lands last is drawn from the seed"), std::string::npos)
        << f->message;
  }
}

TEST(Checker, TwoGetsOfOneProcessIntoOneBufferAreNamedAsItsTwoCalls) {
  for (std::uint64_t seed : unit::seeds(5)) {
    auto r = run(3, seed, [] {
      bsp_begin(3);
      int value = 10 + bsp_pid(), got = -1;
      bsp_push_reg(&value, sizeof value);
      bsp_sync();
      if (bsp_pid() == 0) {
        bsp_get(1, &value, 0, &got, sizeof got);
        bsp_get(2, &value, 0, &got, sizeof got);
      }
      bsp_sync();
      bsp_pop_reg(&value);
      bsp_end();
    });
    const bspcheck::Finding* f = find(r, "put-collision");
    ASSERT_NE(f, nullptr) << r.summary();
    EXPECT_EQ(
        f->message.rfind("process 0's bsp_get and bsp_get write different data to the same 4 bytes on process 0", 0),
        0u)
        << f->message;
  }
}

// check_writes recognises a pair of call sites met before without reading bytes: a second pair,
// among hundreds of collisions of the first, is still found, and each pair is reported once.
TEST(Checker, EachPairOfCollidingSitesIsReportedOnceAmongManyRepeatedCollisions) {
  for (std::uint64_t seed : unit::seeds(5)) {
    auto r = run(3, seed, [] {
      bsp_begin(3);
      std::uint64_t area[4] = {0, 0, 0, 0};
      bsp_push_reg(area, sizeof area);
      bsp_sync();
      if (bsp_pid() == 0)
        for (std::uint64_t i = 0; i < 300; ++i) {
          const std::uint64_t v[2] = {i, i + 1};
          bsp_put(1, v, area, static_cast<int>(8 * (i % 3)), sizeof v);  // site A: 300 overlapping puts
        }
      if (bsp_pid() == 2) {
        const std::uint64_t w = 1000;
        bsp_put(1, &w, area, 8, sizeof w);  // site B: overlaps A's, different data
      }
      bsp_sync();
      bsp_pop_reg(area);
      bsp_end();
    });
    EXPECT_EQ(r.count("put-collision"), 2u) << "A with A, A with B\n" << r.summary();
    bool a_with_b = false;
    for (const bspcheck::Finding& f : r.findings)
      a_with_b = a_with_b || (f.rule == "put-collision" && f.processes == std::vector<int>{0, 1, 2});
    EXPECT_TRUE(a_with_b) << r.summary();
  }
}

// The same where the writes are many: check_writes then numbers every write's call site at once
// (after a sixteenth of them were asked for), and tells writes at one address apart by their first
// 8 bytes, which the intervals carry. Site A writes 16 bytes at each address 20 times, the same
// first 8 bytes each time and other last 8 (collisions of A with A); site C, called last, writes
// at one of those addresses the same first 8 bytes as A and other last 8: right after A's writes
// there in the address order, and still a collision of A with C.
TEST(Checker, ACollisionAmongTwentyThousandOverlappingPutsIsFound) {
  for (std::uint64_t seed : unit::seeds(3)) {
    auto r = run(2, seed, [] {
      bsp_begin(2);
      std::vector<std::uint64_t> area(1025, 0);
      bsp_push_reg(area.data(), static_cast<int>(area.size() * 8));
      bsp_sync();
      if (bsp_pid() == 0) {
        for (std::uint64_t i = 0; i < 20000; ++i) {
          const std::uint64_t v[2] = {i % 1024, 7 + i / 1024};
          bsp_put(1, v, area.data(), static_cast<int>(8 * (i % 1024)), sizeof v);  // site A
        }
        const std::uint64_t w[2] = {100, 999};
        bsp_put(1, w, area.data(), 8 * 100, sizeof w);  // site C
      }
      bsp_sync();
      bsp_pop_reg(area.data());
      bsp_end();
    });
    EXPECT_EQ(r.count("put-collision"), 2u) << "A with A, A with C\n" << r.summary();
  }
}

TEST(Checker, PutCollisionWithIdenticalDataIsClean) {
  auto r = run(3, 1, [] { colliding_puts(true); });
  EXPECT_TRUE(r.findings.empty()) << r.summary();
}

TEST(Checker, WerrorMakesAWarningFail) {
  bspcheck::Options o;
  o.procs = 3;
  o.werror = true;
  auto r = bspcheck::run(o, [] { colliding_puts(false); });
  EXPECT_FALSE(r.ok()) << r.summary();
}

TEST(Checker, DisabledRuleIsNotReported) {
  bspcheck::Options o;
  o.procs = 3;
  o.disabled_rules = {"put-collision"};
  auto r = bspcheck::run(o, [] { colliding_puts(false); });
  EXPECT_EQ(r.count("put-collision"), 0u) << r.summary();
}

TEST(Checker, HpGetSourceModifiedOnTheRemoteIsAnError) {
  // The rule is about changes between the call and the end of the superstep: in schedules where
  // process 1 changes x before process 0 even calls bsp_hpget, there is nothing to see, so the
  // rule must fire in some schedules and, whenever it fires, fail the run.
  int fired = 0;
  for (std::uint64_t seed : unit::seeds(20)) {
    auto r = run(2, seed, [] {
      bsp_begin(2);
      int x = 1, y = 0;
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      if (bsp_pid() == 0) bsp_hpget(1, &x, 0, &y, sizeof y);
      x = 2;  // the remote source changes while the hpget may still read it
      bsp_sync();
      bsp_pop_reg(&x);
      bsp_end();
    });
    if (r.count("hp-src-modified") > 0) {
      ++fired;
      EXPECT_FALSE(r.ok()) << r.summary();
    }
  }
  EXPECT_GT(fired, 0);
}

TEST(Checker, HpDestinationWrittenByItsOwnerIsAConflict) {
  for (std::uint64_t seed : unit::seeds(10)) {
    // With ASan poisoning the write itself stops the program (tests/asan); here the rule is
    // decided by comparing the destination's contents, as in every build.
    bspcheck::Options o;
    o.procs = 2;
    o.seed = seed;
    o.asan_poisoning = false;
    auto r2 = unit::run_opts(o, [] {
      bsp_begin(2);
      int v = 5, y = 0;
      bsp_push_reg(&v, sizeof v);
      bsp_sync();
      if (bsp_pid() == 0) {
        bsp_hpget(1, &v, 0, &y, sizeof y);
        y = 9;  // the owner writes the destination while the data may still arrive
      }
      bsp_sync();
      bsp_pop_reg(&v);
      bsp_end();
    });
    EXPECT_GE(r2.count("hp-dst-conflict"), 1u) << r2.summary();
  }
}

TEST(Checker, HpDestinationAlsoWrittenByAPutIsAConflict) {
  auto r = run(3, 1, [] {
    bsp_begin(3);
    int x = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    int v = 10 + bsp_pid();
    if (bsp_pid() == 1) bsp_hpput(0, &v, &x, 0, sizeof v);
    if (bsp_pid() == 2) bsp_put(0, &v, &x, 0, sizeof v);
    bsp_sync();
    bsp_pop_reg(&x);
    bsp_end();
  });
  EXPECT_GE(r.count("hp-dst-conflict"), 1u) << r.summary();
}

TEST(Checker, SafeHpUseIsClean) {
  for (std::uint64_t seed : unit::seeds(20)) {
    auto r = run(4, seed, [] {
      bsp_begin(4);
      int p = bsp_nprocs(), me = bsp_pid(), x = me * 3;
      std::vector<int> all(static_cast<std::size_t>(p), -1);
      bsp_push_reg(&x, sizeof x);
      bsp_sync();
      for (int i = 0; i < p; ++i) bsp_hpget(i, &x, 0, &all[static_cast<std::size_t>(i)], sizeof(int));
      bsp_sync();
      bsp_pop_reg(&x);
      bsp_end();
    });
    EXPECT_TRUE(r.findings.empty()) << r.summary();
  }
}

TEST(Checker, UnreadMessagesAreAWarningWithCountAndSenders) {
  auto r = run(3, 1, [] {
    bsp_begin(3);
    int v = bsp_pid();
    if (bsp_pid() != 0) bsp_send(0, nullptr, &v, sizeof v);
    bsp_sync();
    bsp_sync();  // process 0 never reads its two messages
    bsp_end();
  });
  const bspcheck::Finding* f = find(r, "queue-unconsumed");
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_EQ(f->severity, bspcheck::Severity::warning);
  EXPECT_NE(f->message.find("2 messages"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("1, 2"), std::string::npos) << f->message;
  EXPECT_EQ(f->superstep, 1);
}

TEST(Checker, TruncatingMoveIsAWarningButReceptionZeroIsNot) {
  auto r = run(2, 1, [] {
    bsp_begin(2);
    double d[2] = {1, 2};
    bsp_send(1 - bsp_pid(), nullptr, d, sizeof d);
    bsp_send(1 - bsp_pid(), nullptr, d, sizeof d);
    bsp_sync();
    double got = 0;
    bsp_move(&got, sizeof got);  // 16-byte payload into 8 bytes
    bsp_move(nullptr, 0);        // "removes" the message: not a truncation
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(r.count("move-truncated"), 2u) << r.summary();  // once per process
}

TEST(Checker, SwappedRegistrationOrderIsASiteMismatch) {
  auto r = run(2, 1, [] {
    bsp_begin(2);
    int a = 0, b = 0;
    if (bsp_pid() == 0) {
      bsp_push_reg(&a, sizeof a);
      bsp_push_reg(&b, sizeof b);
    } else {
      bsp_push_reg(&b, sizeof b);
      bsp_push_reg(&a, sizeof a);
    }
    bsp_sync();
    bsp_pop_reg(&a);
    bsp_pop_reg(&b);
    bsp_sync();
    bsp_end();
  });
  EXPECT_GE(r.count("reg-site-mismatch"), 1u) << r.summary();
}

TEST(Checker, RegistrationsLeftAtEndAreALeak) {
  auto leak = run(2, 1, [] {
    bsp_begin(2);
    int a = 0;
    bsp_push_reg(&a, sizeof a);
    bsp_sync();
    bsp_end();
  });
  EXPECT_EQ(leak.count("reg-leak"), 1u) << leak.summary();
  auto clean = run(2, 1, [] {
    bsp_begin(2);
    int a = 0;
    bsp_push_reg(&a, sizeof a);
    bsp_sync();
    bsp_pop_reg(&a);
    bsp_end();
  });
  EXPECT_TRUE(clean.findings.empty()) << clean.summary();
}

TEST(Checker, Level1HygieneNamesWhatDiffers) {
  auto r = run(2, 1, [] {
    bsp_begin(2);
    int x = 0;
    {
      bspcheck::Level1Scope scope("leaky_collective");
      bsp_push_reg(&x, sizeof x);  // never popped
      int ts = 4;
      bsp_set_tagsize(&ts);  // never restored
      bsp_sync();
    }
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
  });
  const bspcheck::Finding* f = find(r, "level1-hygiene");
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_NE(f->message.find("registrations"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("tag size"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("leaky_collective"), std::string::npos) << f->message;

  auto clean = run(2, 1, [] {
    bsp_begin(2);
    int x = 0;
    {
      bspcheck::Level1Scope scope("tidy_collective");
      bsp_push_reg(&x, sizeof x);
      int ts = 4;
      bsp_set_tagsize(&ts);
      bsp_sync();
      bsp_send(1 - bsp_pid(), &x, nullptr, 0);
      bsp_sync();
      bsp_move(nullptr, 0);
      bsp_pop_reg(&x);
      bsp_set_tagsize(&ts);  // restores the previous size
    }
    bsp_sync();
    bsp_end();
  });
  EXPECT_TRUE(clean.findings.empty()) << clean.summary();
}

TEST(Checker, SuperstepStatsGiveTheHRelation) {
  auto r = run(4, 3, [] {
    bsp_begin(4);
    int p = bsp_nprocs(), me = bsp_pid();
    std::vector<int> buf(static_cast<std::size_t>(p), 0);
    bsp_push_reg(buf.data(), static_cast<int>(buf.size() * sizeof(int)));
    bsp_sync();
    // Superstep 1: everyone puts one int to process 0: h = 3 ints received there (4 with its own).
    bsp_put(0, &me, buf.data(), me * static_cast<int>(sizeof(int)), sizeof(int));
    bsp_sync();
    // Superstep 2: process 0 sends 10 bytes of payload plus a 0-byte tag to each other process.
    char msg[10] = {};
    if (me == 0)
      for (int i = 1; i < p; ++i) bsp_send(i, nullptr, msg, sizeof msg);
    bsp_sync();
    bsp_pop_reg(buf.data());
    bsp_end();
  });
  ASSERT_TRUE(r.ok()) << r.summary();
  ASSERT_EQ(r.superstep_stats.size(), 4u);
  EXPECT_EQ(r.superstep_stats[0].h_bytes, 0u);
  EXPECT_EQ(r.superstep_stats[1].h_bytes, 4 * sizeof(int));
  EXPECT_EQ(r.superstep_stats[1].h_messages, 4u);
  EXPECT_EQ(r.superstep_stats[1].total_bytes, 4 * sizeof(int));
  EXPECT_EQ(r.superstep_stats[2].h_bytes, 30u);
  EXPECT_EQ(r.superstep_stats[2].h_messages, 3u);
  EXPECT_EQ(r.superstep_stats[3].total_operations, 0u);
}
