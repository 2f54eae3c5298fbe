// engine/traced_schedule.hpp on its own: a recorded sequence of calls and choices replays clean,
// a different call is a divergence, and the wrappers compose whatever options are combined.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/traced_schedule.hpp"

using bspcheck::rt::ChoiceKind;
using bspcheck::rt::TracedSchedule;
namespace trace = bspcheck::trace;

namespace {

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("bspcheck-unit-") + name)).string();
}

trace::CallRecord call(trace::Call c, std::uint32_t pid, std::int64_t target) {
  trace::CallRecord r;
  r.call = c;
  r.pid = pid;
  r.target = target;
  return r;
}

// A made-up run: two calls, a queue-order choice, a barrier, one more call.
std::vector<std::uint32_t> play(TracedSchedule& s, trace::Call last) {
  std::vector<std::uint32_t> choices;
  s.call(call(trace::Call::put, 0, 1));
  s.call(call(trace::Call::send, 1, 0));
  choices.push_back(s.scheduler().choose(ChoiceKind::queue_order, 5));
  s.superstep(1);
  s.call(call(last, 0, -1));
  choices.push_back(s.scheduler().choose(ChoiceKind::write_order, 7));
  return choices;
}

}  // namespace

TEST(TracedSchedule, ARecordedRunReplaysItsChoicesWithoutDivergence) {
  const std::string path = temp_path("traced-schedule.trace");
  bspcheck::Options o;
  o.seed = 42;
  o.trace_file = path;
  std::vector<std::uint32_t> recorded;
  {
    TracedSchedule s(o, [](const std::string& what) { FAIL() << what; }, [](const std::string&) {});
    EXPECT_TRUE(s.tracing());
    recorded = play(s, trace::Call::sync);
    EXPECT_GT(s.size().second, 0u) << "calls were written";
  }
  bspcheck::Options r;
  r.seed = 7;  // the trace answers, not the seed
  r.replay_file = path;
  std::vector<std::string> divergences;
  TracedSchedule replay(r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
  EXPECT_EQ(play(replay, trace::Call::sync), recorded);
  EXPECT_TRUE(divergences.empty());
  std::remove(path.c_str());
}

TEST(TracedSchedule, AnotherCallThanTheTraceIsADivergence) {
  const std::string path = temp_path("traced-schedule-2.trace");
  bspcheck::Options o;
  o.trace_file = path;
  {
    TracedSchedule s(o, [](const std::string&) {}, [](const std::string&) {});
    play(s, trace::Call::sync);
  }
  bspcheck::Options r;
  r.replay_file = path;
  std::vector<std::string> divergences;
  TracedSchedule replay(r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
  play(replay, trace::Call::end);
  ASSERT_FALSE(divergences.empty());
  std::remove(path.c_str());
}

TEST(TracedSchedule, WithoutTracesNothingIsTraced) {
  bspcheck::Options o;
  TracedSchedule s(o, [](const std::string&) {}, [](const std::string&) {});
  EXPECT_FALSE(s.tracing());
  EXPECT_EQ(s.size(), std::make_pair(std::uint64_t{0}, std::uint64_t{0}));
}
