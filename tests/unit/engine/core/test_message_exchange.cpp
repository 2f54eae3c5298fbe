// engine/core/message_exchange.hpp on its own: BSMP's bytes and queues, with a scripted scheduler.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/core/message_exchange.hpp"

using bspcheck::rt::ChoiceKind;
using bspcheck::rt::Message;
using bspcheck::rt::MessageExchange;

namespace {

// Answers every choice with a fixed value (clamped to the options), counting the draws.
class FixedScheduler final : public bspcheck::rt::Scheduler {
 public:
  FixedScheduler(std::uint32_t answer, bool exploring) : answer_(answer), exploring_(exploring) {}
  int next_process(const bspcheck::rt::RunnableSet&, int current) override { return current; }
  std::uint32_t choose(ChoiceKind, std::uint32_t n) override {
    ++draws;
    return answer_ < n ? answer_ : n - 1;
  }
  bool exploring() const override { return exploring_; }
  int draws = 0;

 private:
  std::uint32_t answer_;
  bool exploring_;
};

std::vector<int> payload_ints(MessageExchange& x, int pid) {
  std::vector<int> out;
  while (const Message* m = x.first(pid)) {
    int v = 0;
    std::memcpy(&v, x.payload(*m), sizeof v);
    out.push_back(v);
    x.pop(pid);
  }
  return out;
}

}  // namespace

TEST(MessageExchange, MessagesArriveAtTheNextBarrierCopiedAtTheCall) {
  MessageExchange x(3);
  FixedScheduler keep_order(99, false);  // n - 1 at every step: issue order
  int v = 10;
  x.send(0, 2, nullptr, &v, sizeof v);
  v = 20;  // the copy was made at the call
  x.send(1, 2, nullptr, &v, sizeof v);
  EXPECT_EQ(x.pending(2), 0u) << "nothing is readable before the barrier";
  x.deliver(keep_order);
  EXPECT_EQ(x.pending(2), 2u);
  EXPECT_EQ(x.pending_bytes(2), 2 * sizeof(int));
  EXPECT_EQ(x.pending_senders(2), (std::vector<int>{0, 1}));
  EXPECT_EQ(payload_ints(x, 2), (std::vector<int>{10, 20}));
  EXPECT_EQ(x.pending_bytes(2), 0u);
  EXPECT_EQ(x.pending(0), 0u);
}

TEST(MessageExchange, TagsAreTheSizeOfTheirSuperstepAndPayloadsAligned) {
  MessageExchange x(2);
  FixedScheduler keep_order(99, false);
  x.set_tagsize(3);
  const char tag[3] = {'a', 'b', 'c'};
  const char data[5] = {1, 2, 3, 4, 5};
  x.send(0, 1, tag, data, 5);
  x.deliver(keep_order);
  const Message* m = x.first(1);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->tag_len, 3u);
  EXPECT_EQ(std::memcmp(x.tag(*m), tag, 3), 0);
  EXPECT_EQ(std::memcmp(x.payload(*m), data, 5), 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(x.payload(*m)) % MessageExchange::kAlign, 0u);
}

TEST(MessageExchange, UnreadMessagesVanishAtTheNextBarrier) {
  MessageExchange x(2);
  FixedScheduler keep_order(99, false);
  int v = 1;
  x.send(0, 1, nullptr, &v, sizeof v);
  x.deliver(keep_order);
  EXPECT_EQ(x.pending(1), 1u);
  x.deliver(keep_order);
  EXPECT_EQ(x.pending(1), 0u);
}

TEST(MessageExchange, TheSchedulerOrdersEachQueue) {
  MessageExchange x(2);
  FixedScheduler first(0, false);  // Fisher-Yates with j = 0 at every step: a rotation
  for (int v : {1, 2, 3}) x.send(0, 1, nullptr, &v, sizeof v);
  x.deliver(first);
  EXPECT_EQ(first.draws, 2) << "a queue of 3 is 2 Fisher-Yates steps";
  EXPECT_EQ(payload_ints(x, 1), (std::vector<int>{2, 3, 1}));
}

TEST(MessageExchange, ExploringSkipsOrdersTheReceiverCannotSee) {
  MessageExchange x(2);
  FixedScheduler explore(0, true);
  for (int i = 0; i < 3; ++i) {
    const int same = 7;
    x.send(i % 2, 1, nullptr, &same, sizeof same);
  }
  x.deliver(explore);
  EXPECT_EQ(explore.draws, 0) << "identical messages: no order to explore";
  for (int v : {1, 2}) x.send(0, 1, nullptr, &v, sizeof v);
  x.deliver(explore);
  EXPECT_EQ(explore.draws, 1);
}

namespace {

// Records the number of options of every draw, answering each with its last option.
class DrawLog final : public bspcheck::rt::Scheduler {
 public:
  int next_process(const bspcheck::rt::RunnableSet&, int current) override { return current; }
  std::uint32_t choose(ChoiceKind, std::uint32_t n) override {
    options.push_back(n);
    return n - 1;
  }
  std::vector<std::uint32_t> options;
};

}  // namespace

// The barrier touches only the processes that have messages, but the queues are still shuffled
// in ascending pid order, whatever order the messages were sent in: a seed means the same
// choices as before, and a recorded trace replays. Both ways of finding the addressed processes
// are covered: a few among many (sorted), and many among few (a scan).
TEST(MessageExchange, QueuesAreOrderedInPidOrderWhateverTheSendOrder) {
  for (const int p : {4, 100}) {
    SCOPED_TRACE("p = " + std::to_string(p));
    MessageExchange x(p);
    const int high = p - 1, low = 1;
    for (int v : {1, 2, 3}) x.send(0, high, nullptr, &v, sizeof v);  // sent first, 3 messages
    for (int v : {4, 5}) x.send(0, low, nullptr, &v, sizeof v);      // 2 messages
    DrawLog log;
    x.deliver(log);
    EXPECT_EQ(log.options, (std::vector<std::uint32_t>{2, 3, 2})) << "process 1's queue first, then process p-1's";
    EXPECT_EQ(x.readable_pids(), (std::vector<int>{low, high}));
    EXPECT_EQ(x.pending(low), 2u);
    EXPECT_EQ(x.pending(high), 3u);
    x.deliver(log);  // nothing sent: both queues vanish
    EXPECT_TRUE(x.readable_pids().empty());
    EXPECT_EQ(x.pending(low), 0u);
    EXPECT_EQ(x.pending(high), 0u);
    EXPECT_EQ(x.pending_bytes(high), 0u);
  }
}
