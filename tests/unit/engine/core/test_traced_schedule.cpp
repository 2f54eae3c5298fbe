// engine/core/traced_schedule.hpp on its own: a recorded sequence of calls and choices replays clean,
// a different call is a divergence, and the wrappers compose whatever options are combined.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/traced_schedule.hpp"

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
    TracedSchedule s(
        o, [](const std::string& what) { FAIL() << what; }, [](const std::string&) {});
    EXPECT_TRUE(s.tracing());
    recorded = play(s, trace::Call::sync);
    EXPECT_GT(s.size().second, 0u) << "calls were written";
  }
  bspcheck::Options r;
  r.seed = 7;  // the trace answers, not the seed
  r.replay_file = path;
  std::vector<std::string> divergences;
  TracedSchedule replay(
      r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
  EXPECT_EQ(play(replay, trace::Call::sync), recorded);
  EXPECT_TRUE(divergences.empty());
  std::remove(path.c_str());
}

TEST(TracedSchedule, AnotherCallThanTheTraceIsADivergence) {
  const std::string path = temp_path("traced-schedule-2.trace");
  bspcheck::Options o;
  o.trace_file = path;
  {
    TracedSchedule s(
        o, [](const std::string&) {}, [](const std::string&) {});
    play(s, trace::Call::sync);
  }
  bspcheck::Options r;
  r.replay_file = path;
  std::vector<std::string> divergences;
  TracedSchedule replay(
      r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
  play(replay, trace::Call::end);
  ASSERT_FALSE(divergences.empty());
  std::remove(path.c_str());
}

// A call's data is summed as the trace's format version sums it (FNV-1a up to version 2, CRC-32C
// from 3): a replay of an older trace checks the data with the older checksum, and a replay
// recorded again keeps that version, so that its own replay checks the same way.
TEST(TracedSchedule, AReplayChecksCallDataWithItsTracesChecksum) {
  const char data[] = "sixteen bytes!!";
  const std::uint32_t fnv = bspcheck::rt::fnv1a32(data, sizeof data);
  bspcheck::rt::Crc32c crc;
  crc.add(data, sizeof data);
  ASSERT_NE(fnv, crc.value()) << "the two checksums must tell the versions apart";
  EXPECT_EQ(trace::checksum(data, sizeof data, 2), fnv);
  EXPECT_EQ(trace::checksum(data, sizeof data, 3), crc.value());
  EXPECT_EQ(trace::checksum(data, sizeof data), crc.value()) << "versions 3 and later: CRC-32C";
  for (const std::uint16_t version : {std::uint16_t{1}, std::uint16_t{2}, std::uint16_t{3}}) {
    SCOPED_TRACE("version " + std::to_string(version));
    const std::string path = temp_path("traced-schedule-version.trace");
    const std::string again = temp_path("traced-schedule-version-again.trace");
    {
      trace::Header h;
      h.version = version;
      h.procs = 2;
      h.strategy = "random";
      trace::Writer w(path, h);
      trace::CallRecord put = call(trace::Call::put, 0, 1);
      put.size = sizeof data;
      put.checksum = trace::checksum(data, sizeof data, version);
      w.call(put);
      w.end();
    }
    bspcheck::Options r;
    r.replay_file = path;
    r.trace_file = again;
    std::vector<std::string> divergences;
    {
      TracedSchedule replay(
          r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
      EXPECT_EQ(replay.data_checksum_version(), version);
      trace::CallRecord put = call(trace::Call::put, 0, 1);
      put.size = sizeof data;
      put.checksum = trace::checksum(data, sizeof data, replay.data_checksum_version());
      replay.call(put);
    }
    EXPECT_TRUE(divergences.empty()) << divergences.front();
    EXPECT_EQ(trace::EventStream::open(again).header().version, version);
    {  // the other version's checksum of the same data is another call
      bspcheck::Options wrong;
      wrong.replay_file = path;
      TracedSchedule replay(
          wrong, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
      trace::CallRecord put = call(trace::Call::put, 0, 1);
      put.size = sizeof data;
      put.checksum = version < 3 ? crc.value() : fnv;
      replay.call(put);
    }
    EXPECT_EQ(divergences.size(), 1u);
    std::remove(path.c_str());
    std::remove(again.c_str());
  }
}

TEST(TracedSchedule, WithoutTracesNothingIsTraced) {
  bspcheck::Options o;
  TracedSchedule s(
      o, [](const std::string&) {}, [](const std::string&) {});
  EXPECT_FALSE(s.tracing());
  EXPECT_EQ(s.size(), std::make_pair(std::uint64_t{0}, std::uint64_t{0}));
}

// Work records (--measure-work) are a measurement: a trace with them has the same events as one
// without, keeps them apart with their places, and replays clean where no work is recorded.
TEST(TracedSchedule, WorkRecordsAreKeptApartFromTheEvents) {
  const std::string with = temp_path("traced-schedule-work.trace"), without = temp_path("traced-schedule-nowork.trace");
  for (const std::string& path : {with, without}) {
    bspcheck::Options o;
    o.trace_file = path;
    TracedSchedule s(
        o, [](const std::string&) {}, [](const std::string&) {});
    if (path == with) s.work(1, 1234);  // before any event
    s.call(call(trace::Call::cbsp_send, 0, 1));
    if (path == with) s.work(0, 5678);
    s.call(call(trace::Call::cbsp_nsync, 0, -1));
  }
  const trace::Reader a = trace::Reader::open(with), b = trace::Reader::open(without);
  ASSERT_EQ(a.events().size(), b.events().size());
  for (std::size_t i = 0; i < a.events().size(); ++i) {
    EXPECT_EQ(a.events()[i].type, b.events()[i].type);
    EXPECT_EQ(a.events()[i].rec, b.events()[i].rec);
  }
  ASSERT_EQ(a.work().size(), 2u);
  EXPECT_TRUE(b.work().empty());
  EXPECT_EQ(a.work()[0].pid, 1u);
  EXPECT_EQ(a.work()[0].ns, 1234u);
  EXPECT_EQ(a.work()[0].before, 0u);
  EXPECT_EQ(a.work()[1].pid, 0u);
  EXPECT_EQ(a.work()[1].ns, 5678u);
  EXPECT_EQ(a.work()[1].before, 1u);
  EXPECT_EQ(a.events()[1].rec.call, trace::Call::cbsp_nsync);
  EXPECT_STREQ(trace::call_name(trace::Call::cbsp_nsync), "cBSP_nsync");

  bspcheck::Options r;
  r.replay_file = with;
  std::vector<std::string> divergences;
  {
    TracedSchedule replay(
        r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
    replay.call(call(trace::Call::cbsp_send, 0, 1));
    replay.call(call(trace::Call::cbsp_nsync, 0, -1));
  }
  EXPECT_TRUE(divergences.empty()) << divergences.front();
  std::remove(with.c_str());
  std::remove(without.c_str());
}

// The replay reads the usual records by their bytes (a choice below 128, a call as the program
// made it); a record it does not take so is read whole, and every difference is named as before.
TEST(TracedSchedule, EachDifferenceFromTheTraceIsNamed) {
  const std::string path = temp_path("traced-schedule-differences.trace");
  {
    trace::Header h;
    h.procs = 4;
    h.strategy = "random";
    trace::Writer w(path, h);
    w.choice(static_cast<std::uint8_t>(ChoiceKind::queue_order), 4);
    w.choice(static_cast<std::uint8_t>(ChoiceKind::next_process), 3);
    trace::CallRecord put = call(trace::Call::put, 0, 1);
    put.size = 8;
    w.call(put);
    w.choice(static_cast<std::uint8_t>(ChoiceKind::write_order), 300);  // two bytes: read whole
    w.choice(static_cast<std::uint8_t>(ChoiceKind::write_order), 1);
    w.end();
  }
  bspcheck::Options r;
  r.replay_file = path;
  std::vector<std::string> divergences;
  TracedSchedule replay(
      r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
  auto last = [&] { return divergences.empty() ? std::string("(none)") : divergences.back(); };

  replay.scheduler().choose(ChoiceKind::queue_order, 3);  // the trace's 4 is out of range
  ASSERT_EQ(divergences.size(), 1u);
  EXPECT_NE(last().find("message-order choice 4 is out of range 0..2"), std::string::npos) << last();

  const bspcheck::rt::PerProcess<int> list = {0, 1};
  const bspcheck::rt::PerProcess<int> position = {0, 1, -1, -1};
  replay.scheduler().next_process(bspcheck::rt::RunnableSet{list, position}, 0);  // 3 is not runnable
  ASSERT_EQ(divergences.size(), 2u);
  EXPECT_NE(last().find("chooses process 3 to run next, which is not runnable now"), std::string::npos) << last();

  trace::CallRecord bigger = call(trace::Call::put, 0, 1);
  bigger.size = 16;
  replay.call(bigger);
  ASSERT_EQ(divergences.size(), 3u);
  EXPECT_NE(last().find("where the trace has bsp_put by process 0 to process 1, size 8"), std::string::npos) << last();

  EXPECT_EQ(replay.scheduler().choose(ChoiceKind::write_order, 1000), 300u);
  EXPECT_EQ(replay.scheduler().choose(ChoiceKind::write_order, 2), 1u);
  EXPECT_EQ(divergences.size(), 3u) << last();
  std::remove(path.c_str());
}

// A barrier's shuffles (Scheduler::choose_shuffle) replay as recorded, whatever their size: draws
// of one and two varint bytes (the replay's inline path) and of three (n > 2^14, read by the
// generic reader in the same loop), between other choices and calls. A shuffle of another kind
// than the trace's is a divergence.
TEST(TracedSchedule, ShufflesReplayAsRecorded) {
  const std::string path = temp_path("traced-schedule-shuffles.trace");
  auto play_shuffles = [](TracedSchedule& s, ChoiceKind second) {
    std::vector<std::vector<std::uint32_t>> orders;
    std::uint32_t pid = 0;
    for (std::uint32_t n : {1u, 2u, 130u, 20000u, 3u}) {
      std::vector<std::uint32_t> v(n);
      for (std::uint32_t i = 0; i < n; ++i) v[i] = i;
      s.scheduler().shuffle(v, n == 130 ? second : ChoiceKind::write_order);
      orders.push_back(v);
      s.call(call(trace::Call::put, pid, n));
      orders.push_back({s.scheduler().choose(ChoiceKind::hp_timing, 1000)});
      pid ^= 1;
    }
    return orders;
  };
  bspcheck::Options o;
  o.seed = 11;
  o.procs = 2;
  o.trace_file = path;
  std::vector<std::vector<std::uint32_t>> recorded;
  {
    TracedSchedule s(
        o, [](const std::string& what) { FAIL() << what; }, [](const std::string&) {});
    recorded = play_shuffles(s, ChoiceKind::write_order);
  }
  bspcheck::Options r;
  r.seed = 12;  // the trace answers, not the seed
  r.procs = 2;
  r.replay_file = path;
  {
    TracedSchedule replay(
        r, [](const std::string& what) { FAIL() << what; }, [](const std::string&) {});
    EXPECT_EQ(play_shuffles(replay, ChoiceKind::write_order), recorded);
  }
  std::vector<std::string> divergences;
  {
    TracedSchedule replay(
        r, [&](const std::string& what) { divergences.push_back(what); }, [](const std::string&) {});
    play_shuffles(replay, ChoiceKind::queue_order);
  }
  ASSERT_FALSE(divergences.empty());
  EXPECT_NE(divergences.front().find("message-order choice where the trace has a write-order"), std::string::npos)
      << divergences.front();
  std::remove(path.c_str());
}

TEST(TracedSchedule, AShuffleDrawOutOfItsRangeIsADivergence) {
  // A shuffle of 200 recorded, one of 2 replayed: its one draw must be below 2, and the trace's
  // is not (the value is checked on the inline path too, not only on the slower one).
  const std::string path = temp_path("traced-schedule-shuffle-range.trace");
  bspcheck::Options o;
  o.seed = 11;
  o.procs = 2;
  o.trace_file = path;
  std::vector<std::uint32_t> big(200);
  {
    TracedSchedule s(
        o, [](const std::string& what) { FAIL() << what; }, [](const std::string&) {});
    for (std::uint32_t i = 0; i < big.size(); ++i) big[i] = i;
    s.scheduler().shuffle(big, ChoiceKind::write_order);
  }
  ASSERT_NE(big.back(), 199u) << "the seed's first draw is not 199: pick another seed";
  bspcheck::Options r;
  r.procs = 2;
  r.replay_file = path;
  // A divergence stops the run (the real handler does not return): here, by throwing.
  struct Diverged {
    std::string what;
  };
  std::string divergence;
  try {
    TracedSchedule replay(
        r, [](const std::string& what) { throw Diverged{what}; }, [](const std::string&) {});
    std::vector<std::uint32_t> two{0, 1};
    replay.scheduler().shuffle(two, ChoiceKind::write_order);
  } catch (const Diverged& d) {
    divergence = d.what;
  }
  EXPECT_NE(divergence.find("out of range 0..1"), std::string::npos) << divergence;
  std::remove(path.c_str());
}
