// replay/rank_traces.hpp: the draws that make the engine's shuffle give a recorded order, a
// queue's order from its senders, and the merge of MPI ranks' records into one engine trace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "replay/rank_traces.hpp"
#include "replay/replay_scheduler.hpp"
#include "replay/trace_format.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace trace = bspcheck::trace;
namespace rt = bspcheck::rt;

namespace {

// Answers each choice with the next of a list of draws.
class Scripted final : public rt::Scheduler {
 public:
  explicit Scripted(std::vector<std::uint32_t> draws) : draws_(std::move(draws)) {}
  int next_process(const rt::RunnableSet&, int current) override { return current; }
  std::uint32_t choose(rt::ChoiceKind, std::uint32_t n) override {
    EXPECT_LT(next_, draws_.size());
    const std::uint32_t d = draws_[next_++];
    EXPECT_LT(d, n);
    return d;
  }
  std::size_t used() const { return next_; }

 private:
  std::vector<std::uint32_t> draws_;
  std::size_t next_ = 0;
};

std::vector<std::uint32_t> shuffled_by(const std::vector<std::uint32_t>& order) {
  std::vector<std::uint32_t> v(order.size());
  std::iota(v.begin(), v.end(), 0u);
  Scripted s(trace::shuffle_draws_for(order));
  s.shuffle(v, rt::ChoiceKind::queue_order);
  EXPECT_EQ(s.used(), order.size() < 2 ? 0 : order.size() - 1);
  return v;
}

TEST(ShuffleDrawsFor, TheEngineShuffleGivesEveryOrderOfFive) {
  std::vector<std::uint32_t> order = {0, 1, 2, 3, 4};
  int orders = 0;
  do {
    EXPECT_EQ(shuffled_by(order), order);
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(orders, 120);
}

TEST(ShuffleDrawsFor, TheIssueOrderIsTheDefaultDraws) {
  // The default schedule's draws (n-1, then n-2, ...): nothing moves.
  EXPECT_EQ(trace::shuffle_draws_for({0, 1, 2, 3}), (std::vector<std::uint32_t>{3, 2, 1}));
  EXPECT_TRUE(trace::shuffle_draws_for({0}).empty());
}

TEST(QueueOrderFromSenders, EachMessageByItsSenderThenItsPlaceAmongTheSendersMessages) {
  // Issue order under pid order: sender 0's message, sender 1's, then sender 2's two.
  EXPECT_EQ(trace::queue_order_from_senders({2, 0, 2, 1}), (std::vector<std::uint32_t>{2, 0, 3, 1}));
  EXPECT_EQ(trace::queue_order_from_senders({0, 1, 1}), (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(RankTracePrefix, OnlyARanksRecordHasOne) {
  EXPECT_EQ(trace::rank_trace_prefix("/tmp/run.trace.rank12"), "/tmp/run.trace");
  EXPECT_EQ(trace::rank_trace_prefix("/tmp/run.trace"), "");
  EXPECT_EQ(trace::rank_trace_prefix("/tmp/run.rank"), "");
  EXPECT_EQ(trace::rank_trace_prefix("/tmp/run.rank1x"), "");
}

trace::CallRecord call(trace::Call c, std::uint32_t pid, std::int64_t target = -1) {
  trace::CallRecord r;
  r.call = c;
  r.pid = pid;
  r.target = target;
  return r;
}

class Merge : public ::testing::Test {
 protected:
  // Each test of this fixture is a process of its own, and ctest runs them side by side: one
  // prefix each, or one test's ranks are merged with another's.
  std::string prefix =
      (std::filesystem::temp_directory_path() / ("bspcheck_rank_merge." + std::to_string(getpid()) + ".trace"))
          .string();
  void TearDown() override {
    for (int k = 0; k < 3; ++k) std::filesystem::remove(trace::rank_trace_path(prefix, k));
    std::filesystem::remove(prefix);
  }
  // Rank k of 2: sends one message to process 0, syncs (rank 0: its queue delivered from sender
  // 1 first; rank 1: 3 hp operations), then ends; `complete` false cuts it off after the send.
  void write_rank(int k, bool complete = true, std::uint32_t procs = 2) {
    trace::Header h;
    h.procs = procs;
    h.seed = static_cast<std::uint64_t>(k);
    h.strategy = trace::kMpiRankStrategy;
    trace::Writer w(trace::rank_trace_path(prefix, k), h);
    w.call(call(trace::Call::send, static_cast<std::uint32_t>(k), 0));
    if (!complete) {
      w.flush();
      return;
    }
    w.call(call(trace::Call::sync, static_cast<std::uint32_t>(k)));
    if (k == 0)
      for (std::uint32_t d : trace::shuffle_draws_for(trace::queue_order_from_senders({1, 0})))
        w.choice(static_cast<std::uint8_t>(rt::ChoiceKind::queue_order), d);
    if (k == 1) w.choice(static_cast<std::uint8_t>(rt::ChoiceKind::hp_timing), 3);
    w.superstep(1);
    w.call(call(trace::Call::end, static_cast<std::uint32_t>(k)));
    w.end();
  }
};

TEST_F(Merge, CallsInPidOrderThenTheBarriersOutcomes) {
  write_rank(0);
  write_rank(1);
  EXPECT_EQ(trace::merge_rank_traces(prefix, prefix), 2);
  const trace::Reader r = trace::Reader::open(prefix);
  EXPECT_EQ(r.header().strategy, trace::kMpiStrategy);
  EXPECT_EQ(r.header().procs, 2u);
  EXPECT_TRUE(r.complete());
  std::vector<std::string> seen;
  for (const trace::Event& e : r.events()) {
    if (e.type == trace::Event::call)
      seen.push_back(std::string(trace::call_name(e.rec.call)) + " " + std::to_string(e.rec.pid));
    else if (e.type == trace::Event::choice)
      seen.push_back("choice " + std::to_string(e.kind) + "=" + std::to_string(e.value));
    else if (e.type == trace::Event::superstep) seen.push_back("superstep " + std::to_string(e.value));
  }
  // The hp operations in issue order (HpOperations::taking_order: a take moves the last one to
  // its place): indices 0, 1, 0 of 3, 2, 1 pending; the queue's one draw puts sender 1 first.
  EXPECT_EQ(seen, (std::vector<std::string>{"bsp_send 0", "bsp_sync 0", "bsp_send 1", "bsp_sync 1", "choice 4=0",
                                            "choice 4=1", "choice 4=0", "choice 2=0", "superstep 1", "bsp_end 0",
                                            "bsp_end 1"}));
}

TEST_F(Merge, ACutOffRecordCutsTheMergedTraceAfterTheCallsEachRankMade) {
  write_rank(0);
  write_rank(1, false);
  trace::merge_rank_traces(prefix, prefix);
  const trace::Reader r = trace::Reader::open(prefix);
  EXPECT_FALSE(r.complete());
  ASSERT_EQ(r.events().size(), 3u);  // rank 0's send and sync, rank 1's send
  EXPECT_EQ(r.events()[2].rec.call, trace::Call::send);
}

TEST_F(Merge, AMissingOrForeignRecordIsRefusedWithTheReason) {
  write_rank(0);
  try {
    trace::merge_rank_traces(prefix, prefix);
    FAIL() << "merged without rank 1's record";
  } catch (const trace::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("rank1: missing"), std::string::npos) << e.what();
  }
  write_rank(1, true, 3);  // a record of a run of 3
  try {
    trace::merge_rank_traces(prefix, prefix);
    FAIL() << "merged records of runs of 2 and 3 processes";
  } catch (const trace::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("another run"), std::string::npos) << e.what();
  }
}

TEST_F(Merge, ItsReplayRunsInPidOrderAndTakesTheBarriersOutcomesFromTheRecord) {
  write_rank(0);
  write_rank(1);
  trace::merge_rank_traces(prefix, prefix);
  std::vector<std::string> diverged;
  trace::ReplayScheduler replay(
      trace::EventStream::open(prefix), std::make_unique<Scripted>(std::vector<std::uint32_t>{}),
      [&](const std::string& m) { diverged.push_back(m); }, [](const std::string&) {});
  const rt::PerProcess<int> all = {1, 0}, all_pos = {1, 0}, one = {1}, one_pos = {-1, 0};
  EXPECT_EQ(replay.next_process(rt::RunnableSet{all, all_pos}, 1), 0);  // all can run: process 0
  replay.call(call(trace::Call::send, 0, 0));
  // An unbuffered operation waits for the barrier, whatever the trace holds next.
  EXPECT_EQ(replay.choose(rt::ChoiceKind::hp_timing, 2), 1u);
  replay.call(call(trace::Call::sync, 0));
  EXPECT_EQ(replay.next_process(rt::RunnableSet{one, one_pos}, 0), 1);
  replay.call(call(trace::Call::send, 1, 0));
  replay.call(call(trace::Call::sync, 1));
  // The barrier: the recorded hp order, writes as issued, the queue as the MPI run delivered it.
  EXPECT_EQ(replay.choose(rt::ChoiceKind::hp_timing, 3), 0u);
  EXPECT_EQ(replay.choose(rt::ChoiceKind::hp_timing, 2), 1u);
  EXPECT_EQ(replay.choose(rt::ChoiceKind::hp_timing, 1), 0u);
  std::vector<int> writes = {0, 1, 2}, queue = {0, 1};
  replay.shuffle(writes, rt::ChoiceKind::write_order);
  replay.shuffle(queue, rt::ChoiceKind::queue_order);
  EXPECT_EQ(writes, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(queue, (std::vector<int>{1, 0}));
  replay.superstep(1);
  replay.call(call(trace::Call::end, 0));
  replay.call(call(trace::Call::end, 1));
  EXPECT_TRUE(diverged.empty()) << diverged.front();
  // A program that sends where the record has bsp_end diverges.
  trace::ReplayScheduler again(
      trace::EventStream::open(prefix), std::make_unique<Scripted>(std::vector<std::uint32_t>{}),
      [&](const std::string& m) { diverged.push_back(m); }, [](const std::string&) {});
  again.call(call(trace::Call::sync, 0));
  ASSERT_EQ(diverged.size(), 1u);
  EXPECT_NE(diverged[0].find("where the trace has bsp_send by process 0"), std::string::npos) << diverged[0];
}

}  // namespace
