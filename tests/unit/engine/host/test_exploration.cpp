// include/bspcheck/exploration.hpp: bounded search and shrinking in-process, on a program whose
// bug needs one message order: process 0 cannot handle a first message from process 2.
#include <bspcheck/exploration.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "unit_helpers.hpp"

namespace {

// Processes 1..p-1 each send their pid to process 0, which stops (bsp_abort) when the first
// message in its queue is process 2's. In the default schedule the queue keeps its issue order,
// 1 2 3 (an exploring run runs the processes in pid order), so it passes; putting 2 first takes
// one non-default queue-order choice.
void first_message_not_from_two() {
  bsp_begin(bsp_nprocs());
  int tag = 0;
  bsp_set_tagsize(&tag);
  bsp_sync();
  if (bsp_pid() > 0) {
    const int me = bsp_pid();
    bsp_send(0, nullptr, &me, sizeof me);
  }
  bsp_sync();
  if (bsp_pid() == 0) {
    int from = -1;
    bsp_move(&from, sizeof from);
    if (from == 2) bsp_abort("the first message is from process 2\n");
  }
  bsp_end();
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("bspcheck-unit-") + name)).string();
}

}  // namespace

TEST(Exploration, BoundedSearchFindsTheOneBadMessageOrder) {
  bspcheck::Options o;
  o.procs = 4;
  const bspcheck::ExploreResult r = bspcheck::explore(o, first_message_not_from_two, 1);
  ASSERT_TRUE(r.failed) << "one deviation (another message first) makes it fail";
  EXPECT_TRUE(r.failing.aborted);
  ASSERT_EQ(r.deviations.size(), 1u);
  EXPECT_NE(r.deviations[0].find("message order"), std::string::npos) << r.deviations[0];
  EXPECT_GT(r.schedules, 1u) << "the default schedule passes";
}

TEST(Exploration, BoundZeroRunsOnlyTheDefaultSchedule) {
  bspcheck::Options o;
  o.procs = 4;
  const bspcheck::ExploreResult r = bspcheck::explore(o, first_message_not_from_two, 0);
  EXPECT_FALSE(r.failed);
  EXPECT_EQ(r.schedules, 1u);
  EXPECT_FALSE(r.exhausted) << "schedules with one deviation exist";
}

TEST(Exploration, ShrinkKeepsOnlyTheChoiceThatMatters) {
  // A failing seed, recorded.
  const std::string trace = temp_path("shrink.trace"), minimal = temp_path("shrink.min.trace");
  bspcheck::Options o;
  o.procs = 4;
  bool found = false;
  for (std::uint64_t seed = 1; seed < 200 && !found; ++seed) {
    o.seed = seed;
    found = !bspcheck::run(o, first_message_not_from_two).ok();
  }
  ASSERT_TRUE(found) << "some seed puts another message first";
  o.trace_file = trace;
  ASSERT_FALSE(bspcheck::run(o, first_message_not_from_two).ok());
  o.trace_file.clear();

  const bspcheck::ShrinkResult s = bspcheck::shrink(o, first_message_not_from_two, trace, minimal);
  EXPECT_TRUE(s.failed);
  EXPECT_GT(s.choices, s.kept);
  EXPECT_GE(s.kept, 1u) << "the default schedule passes: some choice must stay";
  EXPECT_LE(s.kept, 3u) << "only the queue order of process 0's queue matters";
  EXPECT_FALSE(s.minimal.ok()) << "the minimal run still fails";
  EXPECT_TRUE(std::filesystem::exists(minimal));
  std::remove(trace.c_str());
  std::remove(minimal.c_str());
}

namespace {

// Both processes put to process 0's x in each of 60 supersteps; process 0 aborts when the same
// process wins the collision in supersteps 0..39 and the other one in superstep 40. Uniform
// random choices show it with probability 2^-40; the coverage search, one mutation away from
// the default schedule (the same winner everywhere), within a few hundred runs.
void collision_streak() {
  bsp_begin(2);
  static int x;
  int winners[60];
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int mine = bsp_pid() + 1;
  for (int s = 0; s < 60; ++s) {
    bsp_put(0, &mine, &x, 0, sizeof mine);
    bsp_sync();
    winners[s] = x;
  }
  if (bsp_pid() == 0) {
    bool streak = true;
    for (int s = 1; s < 40; ++s) streak = streak && winners[s] == winners[0];
    if (streak && winners[40] != winners[0]) bsp_abort("the rare schedule\n");
  }
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
}

}  // namespace

TEST(Exploration, CoverageSearchFindsARareCollisionThatRandomSeedsMiss) {
  bspcheck::Options o;
  o.procs = 2;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    o.seed = seed;
    ASSERT_TRUE(bspcheck::run(o, collision_streak).ok()) << "seed " << seed << " found the 2^-40 schedule";
  }
  const bspcheck::CoverageResult r = bspcheck::coverage_search(o, collision_streak, /*seed=*/1, /*max_runs=*/3000);
  ASSERT_TRUE(r.failed) << r.schedules << " schedules, " << r.tuples << " tuples";
  EXPECT_TRUE(r.failing.aborted);
  EXPECT_GT(r.tuples, 60u) << "each superstep's collision counts apart";
  EXPECT_GT(r.corpus, 1u);
  ASSERT_FALSE(r.deviations.empty());
}

TEST(Exploration, CoverageSearchIsAFunctionOfItsSeed) {
  bspcheck::Options o;
  o.procs = 2;
  const bspcheck::CoverageResult a = bspcheck::coverage_search(o, collision_streak, 7, 3000);
  const bspcheck::CoverageResult b = bspcheck::coverage_search(o, collision_streak, 7, 3000);
  ASSERT_TRUE(a.failed);
  EXPECT_EQ(a.schedules, b.schedules);
  EXPECT_EQ(a.tuples, b.tuples);
  EXPECT_EQ(a.corpus, b.corpus);
  EXPECT_EQ(a.deviations, b.deviations);
}

TEST(Exploration, CoverageSearchUsesTheCallersVerdict) {
  bspcheck::Options o;
  o.procs = 4;
  int runs = 0;
  const bspcheck::CoverageResult r = bspcheck::coverage_search(
      o, first_message_not_from_two, 1, 50, [&](const bspcheck::RunResult&) { return ++runs == 5; });
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.schedules, 5u);
}

namespace {

// Process 0 prints which process's message came first: the output depends on the message order,
// though nothing fails.
void prints_first_sender() {
  bsp_begin(bsp_nprocs());
  int tag = 0;
  bsp_set_tagsize(&tag);
  bsp_sync();
  if (bsp_pid() > 0) {
    const int me = bsp_pid();
    bsp_send(0, nullptr, &me, sizeof me);
  }
  bsp_sync();
  if (bsp_pid() == 0) {
    int from = -1;
    bsp_move(&from, sizeof from);
    std::printf("first message from %d\n", from);
  }
  bsp_end();
}

}  // namespace

TEST(Exploration, ExploreComparesEachSchedulesOutputWithTheDefaultOne) {
  bspcheck::Options o;
  o.procs = 3;
  const bspcheck::ExploreResult r = bspcheck::explore(o, prints_first_sender, 1);
  ASSERT_TRUE(r.failed) << "another first message prints another line, as bsp-check explore reports";
  EXPECT_EQ(r.failing.count("schedule-divergence"), 1u) << r.failing.summary();
  EXPECT_NE(r.failing.summary().find("line 1: the default schedule prints \"first message from 1\""),
            std::string::npos)
      << r.failing.summary();
  ASSERT_EQ(r.deviations.size(), 1u);

  o.disabled_rules = {"schedule-divergence"};
  EXPECT_FALSE(bspcheck::explore(o, prints_first_sender, 1).failed) << "the rule disabled: nothing to compare";
  o.disabled_rules.clear();
  const bspcheck::CoverageResult c = bspcheck::coverage_search(o, prints_first_sender, 1, 200);
  ASSERT_TRUE(c.failed) << c.schedules << " schedules";
  EXPECT_EQ(c.failing.count("schedule-divergence"), 1u) << c.failing.summary();
}

// Bounded search has no seed: the same function gives the same search, schedule for schedule,
// and the same failing schedule (docs/exploration.md, "Bounded search").
TEST(Exploration, BoundedSearchIsAFunctionOfTheProgram) {
  bspcheck::Options o;
  o.procs = 4;
  const bspcheck::ExploreResult a = bspcheck::explore(o, first_message_not_from_two, 1);
  o.seed = 99;  // not the search's: the seed does not steer an exploring run
  const bspcheck::ExploreResult b = bspcheck::explore(o, first_message_not_from_two, 1);
  ASSERT_TRUE(a.failed);
  EXPECT_EQ(a.schedules, b.schedules);
  EXPECT_EQ(a.deviations, b.deviations);
  EXPECT_EQ(a.failing.abort_message, b.failing.abort_message);
  EXPECT_EQ(a.failing.coverage, b.failing.coverage);
}

// Every run reports the coverage tuples its choices reached, whatever its strategy: a queue of
// three different messages in its issue order reaches the default class of message order.
TEST(Exploration, RunsReportTheirCoverageTuples) {
  bspcheck::Options o;
  o.procs = 4;
  std::set<int> outcomes;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    o.seed = seed;
    const bspcheck::RunResult r = bspcheck::run(o, [] {
      bsp_begin(bsp_nprocs());
      int tag = 0;
      bsp_set_tagsize(&tag);
      bsp_sync();
      const int me = bsp_pid();
      bsp_send(0, nullptr, &me, sizeof me);
      bsp_sync();
      bsp_end();
    });
    ASSERT_FALSE(r.coverage.empty()) << "seed " << seed;
    EXPECT_TRUE(std::is_sorted(r.coverage.begin(), r.coverage.end()));
    for (const bspcheck::CoverageTuple& t : r.coverage) {
      EXPECT_EQ(t.superstep, 1) << "the queue is shuffled at the barrier into superstep 1";
      EXPECT_EQ(t.kind, 2) << "message order, the only choice that decides data here";
      EXPECT_GE(t.outcome, 0);
      EXPECT_LE(t.outcome, 2);
      outcomes.insert(t.outcome);
    }
  }
  EXPECT_GE(outcomes.size(), 2u) << "five seeds' shuffles reach more than one outcome class";
}
