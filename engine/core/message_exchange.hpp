// message_exchange.hpp: the mechanics of BSMP (BSPlib 4). A message is copied when it is sent
// (buffered on source), delivered at the barrier into its receiver's queue in an order drawn from
// the scheduler, and read from that queue in the next superstep; messages not read by then
// vanish. It checks nothing and reports nothing: World checks each call's arguments and reports
// findings, then asks this for the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/base/byte_arena.hpp"
#include "runtime/scheduling/scheduler.hpp"

namespace bspcheck::rt {

// 16 bytes: a superstep's queues hold one per message, and a large exchange's first superstep
// spends its time faulting their pages in (docs/performance.md, "Issue 47, goal 4").
struct Message {
  int src;
  std::uint32_t tag_len;
  std::uint32_t payload_len;
  std::uint32_t slot;          // where in the arena, in units of MessageExchange::kAlign (64 GiB at most)
  std::size_t offset() const;  // tag at offset(), payload at offset() + padded tag length
};

class MessageExchange {
 public:
  explicit MessageExchange(int nprocs);
  // Fewer processes than constructed for (bsp_begin granted fewer), before any message.
  void set_processes(int nprocs) {
    outbox_.resize(static_cast<std::size_t>(nprocs));
    inbox_.resize(static_cast<std::size_t>(nprocs));
  }

  // The tag size of this superstep's messages (BSPlib 4.1: set at a barrier for the next one).
  int tagsize() const { return tagsize_; }
  void set_tagsize(int bytes) { tagsize_ = bytes; }

  // Copies a message from src to dst now: tagsize() bytes of tag and payload_len of payload.
  void send(int src, int dst, const void* tag, const void* payload, std::uint32_t payload_len);

  // The barrier: the messages sent in this superstep become the readable ones, each queue in an
  // order drawn from sched (unless it explores and the receiver cannot tell the orders apart);
  // the unread ones vanish.
  void deliver(Scheduler& sched);
  // Hands the storage of the messages readable until now to `into` (before deliver): AddressSanitizer
  // builds keep it, poisoned, to catch bsp_hpmove pointers used after their superstep.
  void retire_readable_storage(ByteArena& into) { into.swap(now_); }
  std::size_t readable_storage_bytes() const { return now_.size(); }

  // The processes that have messages readable in this superstep (moved or not), ascending.
  const std::vector<int>& readable_pids() const { return readable_; }
  // A process's queue in this superstep.
  std::size_t pending(int pid) const { return inbox_[index(pid)].queue.size() - inbox_[index(pid)].head; }
  std::size_t pending_bytes(int pid) const { return inbox_[index(pid)].bytes; }
  // The first message not yet moved, or nullptr.
  const Message* first(int pid) const;
  // Its senders, in queue order, of the messages not yet moved.
  std::vector<int> pending_senders(int pid) const;
  // Removes the first message (after bsp_move or bsp_hpmove has taken it).
  void pop(int pid);
  // Where a readable message's tag and payload are; valid until the next deliver. The payload
  // is aligned to kAlign bytes (bsp_hpmove hands the pointer to the program).
  std::byte* tag(const Message& m) { return now_.at(m.offset()); }
  std::byte* payload(const Message& m) { return now_.at(m.offset() + padded(m.tag_len)); }
  // Bytes a message occupies in the storage, tag padding included (for poisoning).
  static std::size_t footprint(const Message& m) { return padded(m.tag_len) + m.payload_len; }

  static constexpr std::size_t kAlign = 16;
  static std::size_t padded(std::size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

 private:
  struct Inbox {
    std::vector<Message> queue;  // readable in this superstep, in their seeded order
    std::size_t head = 0;        // the next one to move
    std::size_t bytes = 0;       // payload bytes not yet moved
  };
  static std::size_t index(int pid) { return static_cast<std::size_t>(pid); }
  static constexpr std::size_t kMoveLookahead = 4;  // how many moves ahead a message is prefetched
  // Can the receiver tell these messages apart? Not when tag and payload are equal (BSMP names
  // no sender): then their order is not a choice worth exploring.
  bool all_identical(const std::vector<Message>& queue) const;

  int tagsize_ = 0;
  ByteArena next_;                            // messages sent in this superstep
  std::vector<std::vector<Message>> outbox_;  // per destination
  ByteArena now_;                             // messages readable in this superstep
  std::vector<Inbox> inbox_;                  // per process
  std::vector<int> addressed_;                // the processes with a message sent to them in this superstep
  std::vector<int> readable_;                 // the processes whose inbox has messages of this superstep
};

static_assert(sizeof(Message) == 16);
inline std::size_t Message::offset() const { return std::size_t{slot} * MessageExchange::kAlign; }

}  // namespace bspcheck::rt
