// bench_bugfinding: bug-finding power of the strategies. Each program below has one planted,
// schedule-dependent bug that a rare schedule exposes (the issue's own examples among them: one
// of 10! queue orders, one collision in one superstep out of 100); for each strategy and several
// base seeds the benchmark counts the schedules (seeds base, base+1, ...; for the coverage
// search, its runs from seed base) run until the first one shows the bug, and prints the median
// count and the median time (milliseconds; BENCH_CLOCK=cpu: CPU time) per strategy as markdown
// rows.
//
//   bench_bugfinding [BASE_SEEDS=5] [CAP=20000] [BUG,...]
//
// (the third argument: only these bugs, by name, e.g. hp-window,queue-order)
// A count of "> CAP" means the strategy did not find the bug within CAP schedules for at least
// half of the base seeds. docs/performance.md records a run and docs/exploration.md explains
// why each strategy wins where it does.
#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/exploration.hpp>

#include "bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Bug {
  const char* name;
  const char* what;
  int procs;
  std::uint64_t pct_steps;  // the estimate PCT's change points are spread over
  // The program: sets its argument when the run shows the bug.
  void (*body)(bool&);
};

bspcheck::Options bench_options(const bspcheck::Options& o, int p) {
  bspcheck::Options opts = o;
  opts.procs = p;
  opts.checks = false;  // the bugs are the program's own wrong results, not rule violations
  opts.asan_poisoning = false;
  return opts;
}

// The hpput to process 1 must land before its 20th look (the program "knows" it is quick).
void hp_late(bool& bug) {
  bsp_begin(2);
  static int flag;  // one per run: the processes share the lambda's address space
  flag = 0;
  bsp_push_reg(&flag, sizeof flag);
  bsp_sync();
  if (bsp_pid() == 0) {
    static const int one = 1;
    bsp_hpput(1, &one, &flag, 0, sizeof one);
  } else {
    int n = 0, b = 0;
    for (int look = 0; look < 20; ++look) bsp_qsize(&n, &b);  // each call is a switch point
    if (flag == 0) bug = true;
  }
  bsp_sync();
  bsp_pop_reg(&flag);
  bsp_sync();
  bsp_end();
}

// The hpput must land exactly between process 1's 10th and 11th look.
void hp_window(bool& bug) {
  bsp_begin(2);
  static int flag;
  flag = 0;
  bsp_push_reg(&flag, sizeof flag);
  bsp_sync();
  if (bsp_pid() == 0) {
    static const int one = 1;
    bsp_hpput(1, &one, &flag, 0, sizeof one);
  } else {
    int n = 0, b = 0, seen[20];
    for (int look = 0; look < 20; ++look) {
      bsp_qsize(&n, &b);
      seen[look] = flag;
    }
    if (seen[9] == 0 && seen[10] == 1) bug = true;
  }
  bsp_sync();
  bsp_pop_reg(&flag);
  bsp_sync();
  bsp_end();
}

// 100 supersteps, both processes put to process 0's x every superstep; the bug needs the same
// winner in supersteps 0..56 and the other one in superstep 57.
void collision_streak(bool& bug) {
  bsp_begin(2);
  static int x;
  static int winners[100];
  x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int mine = bsp_pid() + 1;
  for (int s = 0; s < 100; ++s) {
    bsp_put(0, &mine, &x, 0, sizeof mine);
    bsp_sync();
    if (bsp_pid() == 0) winners[s] = x;
  }
  if (bsp_pid() == 0) {
    bool streak = true;
    for (int s = 1; s < 57; ++s) streak = streak && winners[s] == winners[0];
    if (streak && winners[57] != winners[0]) bug = true;
  }
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
}

// 10 processes each send one message to process 0 in each of 10 supersteps; the bug needs
// process 7's message first in process 0's queue in superstep 6.
void queue_first(bool& bug) {
  bsp_begin(10);
  int ts = sizeof(int);
  bsp_set_tagsize(&ts);
  bsp_sync();
  for (int s = 0; s < 10; ++s) {
    const int me = bsp_pid();
    bsp_send(0, &me, &me, sizeof me);
    bsp_sync();
    if (me == 0) {
      int st = 0, tag = -1;
      bsp_get_tag(&st, &tag);
      if (s == 6 && tag == 7) bug = true;  // the rest of the queue vanishes at the sync
    }
  }
  bsp_end();
}

// The first example, "a bug that needs one of 10! queue orders": 10 processes each send
// one message to process 0 in each of 10 supersteps, and process 0 goes wrong only when the
// messages of superstep 6 arrive in exactly one order: sender order with 3 and 4 exchanged
// (1 in 10! = 3,628,800 of the orders uniform random draws). The order is one exchange away from
// the issue order; an order far from every ordinary one is beyond every strategy.
void queue_order(bool& bug) {
  bsp_begin(10);
  int ts = sizeof(int);
  bsp_set_tagsize(&ts);
  bsp_sync();
  static const int wanted[10] = {0, 1, 2, 4, 3, 5, 6, 7, 8, 9};
  for (int s = 0; s < 10; ++s) {
    const int me = bsp_pid();
    bsp_send(0, &me, &me, sizeof me);
    bsp_sync();
    if (me == 0) {
      bool same = true;
      for (int i = 0; i < 10; ++i) {
        int st = 0, tag = -1;
        bsp_get_tag(&st, &tag);
        bsp_move(&st, sizeof st);
        same = same && tag == wanted[i];
      }
      if (s == 6 && same) bug = true;
    }
  }
  bsp_end();
}

// The second example, "a collision in one superstep out of 100": both processes put to
// process 0's x in each of 100 supersteps, and the bug needs superstep 57's winner to differ
// from the winner of every one of the other 99 (2 in 2^100 of uniform random's outcomes).
void collision_one_in_100(bool& bug) {
  bsp_begin(2);
  static int x;
  static int winners[100];
  x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int mine = bsp_pid() + 1;
  for (int s = 0; s < 100; ++s) {
    bsp_put(0, &mine, &x, 0, sizeof mine);
    bsp_sync();
    if (bsp_pid() == 0) winners[s] = x;
  }
  if (bsp_pid() == 0) {
    const int usual = winners[0] == winners[57] ? -1 : winners[0];
    bool others = usual != -1;
    for (int s = 0; s < 100 && others; ++s) others = s == 57 || winners[s] == usual;
    if (others) bug = true;
  }
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
}

struct Found {
  std::uint64_t schedules;  // CAP + 1 when not found
  double seconds;
};

// Seeds base·1000003, +1, ... of one seeded strategy until one shows the bug.
Found hunt(const Bug& bug, bspcheck::Strategy strategy, std::uint64_t base, std::uint64_t cap) {
  bspcheck::Options o;
  o.strategy = strategy;
  o.pct_depth = 3;
  o.pct_steps = bug.pct_steps;
  o = bench_options(o, bug.procs);
  const double t0 = bench::now_s();
  for (std::uint64_t i = 0; i < cap; ++i) {
    o.seed = base * 1000003 + i;
    bool shown = false;
    bspcheck::run(o, [&] { bug.body(shown); });
    if (shown) return {i + 1, bench::now_s() - t0};
  }
  return {cap + 1, bench::now_s() - t0};
}

// The coverage-guided search (bspcheck::coverage_search) seeded with base, until a run shows it.
Found hunt_coverage(const Bug& bug, std::uint64_t base, std::uint64_t cap) {
  const bspcheck::Options o = bench_options(bspcheck::Options{}, bug.procs);
  bool shown = false;
  const double t0 = bench::now_s();
  const bspcheck::CoverageResult r = bspcheck::coverage_search(
      o, [&] { shown = false; bug.body(shown); }, base, cap, [&](const bspcheck::RunResult&) { return shown; });
  return {r.failed ? r.schedules : cap + 1, bench::now_s() - t0};
}

template <typename T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int bases = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::uint64_t cap = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20000;
  const std::vector<Bug> bugs = {
      {"hp-late", "hpput not landed by the target's 20th call", 2, 60, hp_late},
      {"hp-window", "hpput lands between the target's 10th and 11th call", 2, 60, hp_window},
      {"collision-streak", "same winner in supersteps 0..56, the other in 57 (of 100)", 2, 400, collision_streak},
      {"queue-first", "process 7's message first of 10 in superstep 6 (of 10)", 10, 1000, queue_first},
      {"queue-order", "one order of 10! of process 0's 10 messages in superstep 6 (of 10)", 10, 1000, queue_order},
      {"collision-1-in-100", "superstep 57's winner differs from all 99 others' (of 100)", 2, 400,
       collision_one_in_100},
  };
  // The coverage search is not a seeded scheduler but a loop over runs: nullopt marks it.
  const std::pair<const char*, std::optional<bspcheck::Strategy>> strategies[] = {
      {"random", bspcheck::Strategy::random}, {"pct d=3", bspcheck::Strategy::pct}, {"coverage", std::nullopt}};
  std::printf("| bug | strategy | median schedules to find | median ms to find | found within cap |\n");
  std::printf("|---|---|---|---|---|\n");
  const std::string only = argc > 3 ? "," + std::string(argv[3]) + "," : "";
  for (const Bug& bug : bugs) {
    if (!only.empty() && only.find("," + std::string(bug.name) + ",") == std::string::npos) continue;
    for (const auto& [name, strategy] : strategies) {
      std::vector<std::uint64_t> counts;
      std::vector<double> seconds;
      int found = 0;
      for (int b = 1; b <= bases; ++b) {
        const Found f = strategy ? hunt(bug, *strategy, static_cast<std::uint64_t>(b), cap)
                                 : hunt_coverage(bug, static_cast<std::uint64_t>(b), cap);
        counts.push_back(f.schedules);
        seconds.push_back(f.seconds);
        if (f.schedules <= cap) ++found;
      }
      const std::uint64_t m = median(counts);
      const std::string count = m > cap ? "> " + std::to_string(cap) : std::to_string(m);
      std::printf("| %s: %s | %s | %s | %.2f | %d/%d |\n", bug.name, bug.what, name, count.c_str(),
                  1000 * median(seconds), found, bases);
      std::fflush(stdout);
    }
  }
  return 0;
}
