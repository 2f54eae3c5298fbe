// Strategies behind the Scheduler interface (runtime/scheduling/, replay/*_scheduler.*):
// each is deterministic for a seed, PCT finds a planted depth-d bug at least as often as its
// bound promises, and the trace wrappers compose (replay + guide) without dangling pointers.
#include "unit_helpers.hpp"

#include "runtime/scheduling/coverage_scheduler.hpp"
#include "runtime/scheduling/pct_scheduler.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace {

// Everything a schedule can change in a small program: interleaving (order of steps), queue
// order, collision winners and when an hpput lands relative to the target's reads.
struct Observed {
  std::vector<int> order;
  std::vector<int> queue;
  std::vector<int> winners;
  std::vector<int> hp_seen;
  auto operator<=>(const Observed&) const = default;
};

Observed observe(const bspcheck::Options& o) {
  const int p = 3;
  Observed ob;
  int hp_target = 0;
  auto r = bspcheck::run(o, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    int x = -1;
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(&hp_target, sizeof hp_target);
    bsp_sync();
    for (int step = 0; step < 3; ++step) {
      ob.order.push_back(me);
      int tag = me * 10 + step;
      bsp_send(0, &tag, &step, sizeof step);
      bsp_put(0, &me, &x, 0, sizeof me);  // every process writes pid 0's x: a collision
      if (me == 1 && step == 0) {
        static const int one = 1;
        bsp_hpput(2, &one, &hp_target, 0, sizeof one);
      }
      if (me == 2) ob.hp_seen.push_back(hp_target);
      bsp_sync();
      if (me == 0) ob.winners.push_back(x);
      int n = 0, bytes = 0;
      bsp_qsize(&n, &bytes);
      for (int i = 0; i < n; ++i) {
        int st = 0, t = 0;
        bsp_get_tag(&st, &t);
        ob.queue.push_back(t);
      }
    }
    bsp_pop_reg(&hp_target);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.aborted) << r.summary();
  return ob;
}

bspcheck::Options options(bspcheck::Strategy strategy, std::uint64_t seed) {
  bspcheck::Options o;
  o.procs = 3;
  o.seed = seed;
  o.strategy = strategy;
  o.asan_poisoning = false;  // the target reads its hp destination on purpose
  o.disabled_rules = {"put-collision", "hp-dst-conflict"};
  o.pct_steps = 40;
  return o;
}

TEST(Schedulers, EachStrategyIsDeterministicForASeed) {
  for (auto strategy : {bspcheck::Strategy::random, bspcheck::Strategy::round_robin, bspcheck::Strategy::pct}) {
    std::set<Observed> distinct;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const Observed a = observe(options(strategy, seed));
      const Observed b = observe(options(strategy, seed));
      EXPECT_EQ(a, b) << "strategy " << static_cast<int>(strategy) << " seed " << seed;
      ASSERT_EQ(a.winners.size(), 3u);
      ASSERT_EQ(a.queue.size(), 9u);
      distinct.insert(a);
    }
    // The seed matters: otherwise the equality above would hold vacuously.
    EXPECT_GE(distinct.size(), 3u) << "strategy " << static_cast<int>(strategy);
  }
}

TEST(Schedulers, PctWithoutChangePointsIsTheDefaultSchedule) {
  // Depth 1: no change point; every non-process choice is its default (issue order, the last
  // write wins, hp at the barrier), so two seeds differ at most in the priority order.
  auto o = options(bspcheck::Strategy::pct, 1);
  o.pct_depth = 1;
  const Observed a = observe(o);
  ASSERT_EQ(a.hp_seen.size(), 3u);
  EXPECT_EQ(a.hp_seen[0], 0) << "the hpput landed before the barrier without a change point";
  EXPECT_EQ(a.hp_seen[1], 1);
  bspcheck::rt::PctScheduler s(5, 1, 100);
  EXPECT_TRUE(s.change_points().empty());
}

TEST(Schedulers, PctDrawsDistinctChangePointsWithinTheEstimate) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    bspcheck::rt::PctScheduler s(seed, 4, 10);
    const auto& cp = s.change_points();
    ASSERT_EQ(cp.size(), 3u);
    for (std::size_t i = 0; i < cp.size(); ++i) {
      EXPECT_GE(cp[i], 1u);
      EXPECT_LE(cp[i], 10u);
      if (i > 0) {
        EXPECT_LT(cp[i - 1], cp[i]);
      }
    }
  }
}

// The planted bug: p = 1, one two-way collision per superstep over `supersteps` supersteps, so
// the run has exactly k = supersteps decisions (write order, n = 2). The bug shows when the
// collision goes the non-default way in exactly supersteps 3 and 7 and the default way in every
// other: a depth-3 bug (two deviations). PCT's bound (docs/exploration.md) for depth 3 and
// k = 10 is 1 / C(10, 2) = 1/45 per run; uniform random finds it with probability 2^-10.
constexpr int kSupersteps = 10;

std::vector<int> collision_winners(bspcheck::Strategy strategy, std::uint64_t seed, int depth) {
  std::vector<int> winners;
  bspcheck::Options o;
  o.procs = 1;
  o.seed = seed;
  o.strategy = strategy;
  o.pct_depth = depth;
  o.pct_steps = kSupersteps;
  o.disabled_rules = {"put-collision"};
  auto r = bspcheck::run(o, [&] {
    bsp_begin(1);
    int x = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    for (int s = 0; s < kSupersteps; ++s) {
      const int first = 1, second = 2;
      bsp_put(0, &first, &x, 0, sizeof first);
      bsp_put(0, &second, &x, 0, sizeof second);
      bsp_sync();
      winners.push_back(x);
    }
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  return winners;
}

TEST(Schedulers, PctFindsAPlantedDepthThreeBugWithinItsBound) {
  const std::vector<int> normal = collision_winners(bspcheck::Strategy::pct, 1, 1);
  ASSERT_EQ(normal.size(), static_cast<std::size_t>(kSupersteps));
  std::vector<int> buggy = normal;
  for (int s : {3, 7}) buggy[static_cast<std::size_t>(s)] = 3 - normal[static_cast<std::size_t>(s)];

  const int runs = 900;
  int pct_found = 0, random_found = 0;
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(runs); ++seed) {
    if (collision_winners(bspcheck::Strategy::pct, seed, 3) == buggy) ++pct_found;
    if (collision_winners(bspcheck::Strategy::random, seed, 3) == buggy) ++random_found;
  }
  std::printf("planted depth-3 bug found in %d of %d runs by pct, %d by random\n", pct_found, runs, random_found);
  // Expected at least runs/45 = 20 for PCT (exactly 20 in expectation: every pair of change
  // points is equally likely). Asking for half of it keeps the test far from the binomial's
  // lower tail (P[X < 10] < 0.5% for X ~ B(900, 1/45)); the seeds are fixed, so it is stable.
  EXPECT_GE(pct_found, runs / 45 / 2) << "PCT found the depth-3 bug " << pct_found << " times in " << runs;
  // Uniform random: 900 / 1024 expected; PCT must do clearly better on this bug.
  EXPECT_GT(pct_found, 4 * random_found) << "random found it " << random_found << " times";
}

// grant_fewer: how many processes bsp_begin grants is a choice of the schedule (kind 6); with it
// on, each strategy is still a function of its seed, and the seeds do not all grant the same.
struct Granted {
  int nprocs = 0;
  std::vector<int> queue;
  auto operator<=>(const Granted&) const = default;
};

Granted observe_granted(bspcheck::Strategy strategy, std::uint64_t seed) {
  bspcheck::Options o = options(strategy, seed);
  o.procs = 4;
  o.grant_fewer = true;
  o.pct_steps = 4;  // pct: the grant is step 1, a change point half the time
  Granted g;
  auto r = bspcheck::run(o, [&] {
    bsp_begin(4);
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    const int me = bsp_pid();
    bsp_send(0, &me, &me, sizeof me);
    bsp_sync();
    if (me == 0) {
      g.nprocs = bsp_nprocs();
      int n = 0, bytes = 0;
      bsp_qsize(&n, &bytes);
      for (int i = 0; i < n; ++i) {
        int st = 0, t = 0;
        bsp_get_tag(&st, &t);
        bsp_move(&st, sizeof st);
        g.queue.push_back(t);
      }
    }
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  return g;
}

TEST(Schedulers, EachStrategyIsDeterministicForASeedWithGrantFewer) {
  for (auto strategy : {bspcheck::Strategy::random, bspcheck::Strategy::round_robin, bspcheck::Strategy::pct}) {
    std::set<int> granted;
    std::set<Granted> distinct;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const Granted a = observe_granted(strategy, seed);
      const Granted b = observe_granted(strategy, seed);
      EXPECT_EQ(a, b) << "strategy " << static_cast<int>(strategy) << " seed " << seed;
      ASSERT_GE(a.nprocs, 1);
      ASSERT_LE(a.nprocs, 4);
      EXPECT_EQ(a.queue.size(), static_cast<std::size_t>(a.nprocs)) << "one message from each granted process";
      granted.insert(a.nprocs);
      distinct.insert(a);
    }
    // The grant is drawn (uniformly under random and round_robin; under pct all are granted
    // unless one of its two change points among 4 steps falls on it): more than one count over
    // 40 seeds.
    EXPECT_GE(granted.size(), 2u) << "strategy " << static_cast<int>(strategy);
    EXPECT_GE(distinct.size(), 3u) << "strategy " << static_cast<int>(strategy);
  }
}

// A planted bug of depth 2 with p = 3 and a choice among three options, so that every factor of
// PCT's bound (docs/exploration.md) counts: the three processes each send one message to
// process 0 in one superstep, and the bug shows when process 2 issued its message first and
// process 0 receives the three in the reverse of their issue order. Under PCT the processes
// issue in priority order (each runs until it blocks), so the bug needs (i) process 2 to have the
// highest initial priority, 1/p = 1/3, and (ii) one deviation: the change point on the queue's
// first Fisher-Yates step (n = 3 options), 1/k, taking value 0 of its two non-default values,
// 1/(n - 1) = 1/2; every other step keeps its default. Bound: 1/(3 k 2) per run.
struct IssueAndArrival {
  std::vector<int> issued, received;
};

IssueAndArrival issue_and_arrival(std::uint64_t seed, int depth, std::uint64_t k) {
  bspcheck::Options o;
  o.procs = 3;
  o.seed = seed;
  o.strategy = bspcheck::Strategy::pct;
  o.pct_depth = depth;
  o.pct_steps = k;
  IssueAndArrival out;
  auto r = bspcheck::run(o, [&] {
    bsp_begin(3);
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    const int me = bsp_pid();
    out.issued.push_back(me);  // in-process, the processes share this: the issue order
    bsp_send(0, &me, &me, sizeof me);
    bsp_sync();
    if (me == 0)
      for (int i = 0; i < 3; ++i) {
        int st = 0, t = -1;
        bsp_get_tag(&st, &t);
        bsp_move(&st, sizeof st);
        out.received.push_back(t);
      }
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  return out;
}

bool depth_two_bug(const IssueAndArrival& x) {
  return x.issued.size() == 3 && x.issued[0] == 2 &&
         x.received == std::vector<int>{x.issued[2], x.issued[1], x.issued[0]};
}

TEST(Schedulers, PctFindsAPlantedDepthTwoBugWithPThreeWithinItsBound) {
  // k: an estimate at least the run's number of steps (the bound needs k >= the step of the
  // deviation); the run has fewer, so change points past its end are wasted, as the bound allows.
  const std::uint64_t k = 30;
  const int runs = 3600;
  int found = 0, without_change_points = 0;
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(runs); ++seed) {
    found += depth_two_bug(issue_and_arrival(seed, 2, k));
    if (seed <= 300) without_change_points += depth_two_bug(issue_and_arrival(seed, 1, k));
  }
  std::printf("planted depth-2 bug (p = 3, n = 3) found in %d of %d runs by pct\n", found, runs);
  EXPECT_EQ(without_change_points, 0) << "depth 1 has no change point: the bug needs one deviation";
  // Bound: runs / (3 * 30 * 2) = 20 expected at least; asking for half keeps far from the
  // binomial's lower tail (P[X < 10] < 0.5% for X ~ B(3600, 1/180)); the seeds are fixed.
  EXPECT_GE(found, runs / (3 * 30 * 2) / 2) << "PCT found the depth-2 bug " << found << " times in " << runs;
}

std::string temp_path(const char* what) {
  return ::testing::TempDir() + "bspcheck_sched_" + what + "_" + std::to_string(::getpid());
}

TEST(Schedulers, ReplayAndGuideComposeWithoutDanglingPointers) {
  // Before: the guided scheduler replaced the replaying one by reassignment while World kept a
  // raw pointer to it, and the first traced call used freed memory (ASan: heap-use-after-free).
  const std::string trace = temp_path("trace"), script = temp_path("script");
  auto recorded = options(bspcheck::Strategy::random, 17);
  recorded.trace_file = trace;
  const Observed original = observe(recorded);
  { std::ofstream(script) << "2 0\n"; }  // a guide that would change a queue order

  auto replayed = options(bspcheck::Strategy::random, 99);  // a different seed: only the trace decides
  replayed.replay_file = trace;
  replayed.guide_file = script;
  EXPECT_EQ(observe(replayed), original) << "the replay must win over the guide while the trace lasts";
  std::remove(trace.c_str());
  std::remove(script.c_str());
}

}  // namespace

// A shuffle's draws in one call (Scheduler::choose_shuffle, overridden by the seeded strategies
// and the coverage wrapper) are exactly the choose(kind, n), choose(kind, n - 1), ... of a
// per-element shuffle: the same values from the same streams, the same coverage tuples, and the
// draws that follow unchanged. Otherwise a seed would shuffle messages and writes otherwise than
// before, and old traces would not replay.
TEST(Schedulers, AShufflesDrawsAreTheChoicesOneAtATime) {
  using bspcheck::rt::ChoiceKind;
  for (auto strategy : {bspcheck::Strategy::random, bspcheck::Strategy::round_robin, bspcheck::Strategy::pct}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const bspcheck::Options o = options(strategy, seed);
      bspcheck::rt::CoverageScheduler batched(bspcheck::rt::make_scheduler(o));
      bspcheck::rt::CoverageScheduler single(bspcheck::rt::make_scheduler(o));
      for (std::uint32_t n : {1u, 2u, 7u, 300u, 5000u}) {
        for (ChoiceKind kind : {ChoiceKind::write_order, ChoiceKind::queue_order}) {
          std::vector<std::uint32_t> v(n), expected(n);
          for (std::uint32_t i = 0; i < n; ++i) v[i] = expected[i] = i;
          batched.shuffle(v, kind);
          for (std::uint32_t i = n; i > 1; --i) {  // Fisher-Yates, one choice at a time
            const std::uint32_t j = single.choose(kind, i);
            ASSERT_LT(j, i);
            std::swap(expected[i - 1], expected[j]);
          }
          ASSERT_EQ(v, expected) << "strategy " << static_cast<int>(strategy) << " seed " << seed << " n " << n;
        }
      }
      EXPECT_EQ(batched.choose(ChoiceKind::hp_timing, 1000), single.choose(ChoiceKind::hp_timing, 1000));
      EXPECT_EQ(batched.coverage().tuples(), single.coverage().tuples());
      EXPECT_GT(batched.coverage().size(), 0u);
    }
  }
}
