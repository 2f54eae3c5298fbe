// include/bspcheck/exploration.hpp: bounded search and shrinking in-process, on a program whose
// bug needs one message order: process 0 cannot handle a first message from process 2.
#include <bspcheck/exploration.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

#include "unit_helpers.hpp"

namespace {

// Processes 1..p-1 each send their pid to process 0, which stops (bsp_abort) when the first
// message in its queue is process 2's. In the default schedule the queue keeps its issue order,
// 3 1 2 (process 3 arrived last at the barrier and runs on), so it passes; putting 2 first takes
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
