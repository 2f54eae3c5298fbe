// Unit tests of mpi/messages/messages: the tag size's requests, a message's wire form and the
// delivered queue (no MPI: the wire bytes are read back directly).
#include "mpi/messages/messages.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using bspcheck::mpi::Messages;
using bspcheck::mpi::Reader;

TEST(MpiMessages, SetTagsizeAnswersThePreviousRequestElseTheValidSize) {
  Messages m;
  EXPECT_EQ(m.request_tagsize(4), 0);
  EXPECT_EQ(m.request_tagsize(8), 4);  // this superstep's last request
  EXPECT_EQ(m.requested(), 8);
  m.set_tagsize(8);
  EXPECT_EQ(m.tagsize(), 8);
  EXPECT_EQ(m.requested(), -1);
}

TEST(MpiMessages, TheQueueHoldsTagsAndPayloadsAlignedInArrivalOrder) {
  Messages sender;
  sender.set_tagsize(3);
  std::vector<std::byte> wire;
  const char tag1[3] = {'a', 'b', 'c'}, tag2[3] = {'x', 'y', 'z'};
  const int payload1 = 42;
  sender.append(wire, tag1, &payload1, sizeof payload1);
  sender.append(wire, tag2, nullptr, 0);
  Messages receiver;
  receiver.start_queue();
  Reader in(wire);
  std::int64_t bytes = 0;
  receiver.take(in, 2, &bytes);
  receiver.take(in, 0, &bytes);
  EXPECT_TRUE(in.done());
  EXPECT_EQ(bytes, 3 + 4 + 3);
  EXPECT_EQ(receiver.count(), 2);
  EXPECT_EQ(receiver.unread_senders(), (std::vector<int>{0, 2}));  // ascending, for queue-unconsumed
  EXPECT_EQ(receiver.payload_bytes(), 4);
  EXPECT_EQ(receiver.front_tag_size(), 3);
  EXPECT_EQ(std::memcmp(receiver.front_tag(), tag1, 3), 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(receiver.front_payload_data()) % 16, 0u);
  int got = 0;
  std::memcpy(&got, receiver.front_payload_data(), sizeof got);
  EXPECT_EQ(got, 42);
  receiver.drop_front();
  EXPECT_EQ(receiver.unread_senders(), std::vector<int>{0});  // a moved message is no longer unread
  EXPECT_EQ(receiver.front_payload(), 0);
  EXPECT_EQ(std::memcmp(receiver.front_tag(), tag2, 3), 0);
  receiver.drop_front();
  EXPECT_TRUE(receiver.empty());
  receiver.start_queue();  // the next sync: unread messages vanish
  EXPECT_EQ(receiver.count(), 0);
}

}  // namespace
