#include "engine/core/message_exchange.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

namespace bspcheck::rt {

MessageExchange::MessageExchange(int nprocs)
    : outbox_(static_cast<std::size_t>(nprocs)), inbox_(static_cast<std::size_t>(nprocs)) {}

void MessageExchange::send(int src, int dst, const void* tag, const void* payload, std::uint32_t payload_len) {
  const std::size_t tag_len = static_cast<std::size_t>(tagsize_);
  const std::size_t off = next_.reserve(padded(tag_len) + payload_len, kAlign);
  if (tag_len) std::memcpy(next_.at(off), tag, tag_len);
  if (payload_len) std::memcpy(next_.at(off + padded(tag_len)), payload, payload_len);
  std::vector<Message>& box = outbox_[index(dst)];
  if (box.empty()) addressed_.push_back(dst);
  // A Message numbers its slot in 32 bits: past 64 GiB of one superstep's messages, the storage
  // is out of memory as it would be on most machines well before (reported as such).
  if (off / kAlign > UINT32_MAX) throw std::bad_alloc();
  box.push_back({src, static_cast<std::uint32_t>(tag_len), payload_len, static_cast<std::uint32_t>(off / kAlign)});
}

void MessageExchange::deliver(Scheduler& sched) {
  now_.swap(next_);
  next_.clear();
  // Only the processes with messages, old or new, are touched: the unread messages of the
  // superstep that ends vanish, and this superstep's become readable.
  for (int pid : readable_) {
    Inbox& in = inbox_[index(pid)];
    in.queue.clear();
    in.head = 0;
    in.bytes = 0;
  }
  readable_.clear();
  // In ascending pid order: each queue's shuffle draws its choices in that order (a queue of
  // fewer than two messages draws none).
  if (addressed_.size() <= inbox_.size() / 32) {
    std::sort(addressed_.begin(), addressed_.end());
  } else {
    addressed_.clear();
    for (std::size_t pid = 0; pid < outbox_.size(); ++pid)
      if (!outbox_[pid].empty()) addressed_.push_back(static_cast<int>(pid));
  }
  for (int pid : addressed_) {
    Inbox& in = inbox_[index(pid)];
    in.queue.swap(outbox_[index(pid)]);  // the outbox keeps the emptied queue's storage
    for (const Message& m : in.queue) in.bytes += m.payload_len;
    if (!sched.exploring() || !all_identical(in.queue)) sched.shuffle(in.queue, ChoiceKind::queue_order);
    for (std::size_t k = 0; k < kMoveLookahead && k < in.queue.size(); ++k)
      __builtin_prefetch(now_.at(in.queue[k].offset()));
    readable_.push_back(pid);
  }
  addressed_.clear();
}

const Message* MessageExchange::first(int pid) const {
  const Inbox& in = inbox_[index(pid)];
  return in.head < in.queue.size() ? &in.queue[in.head] : nullptr;
}

std::vector<int> MessageExchange::pending_senders(int pid) const {
  const Inbox& in = inbox_[index(pid)];
  std::vector<int> senders;
  for (std::size_t i = in.head; i < in.queue.size(); ++i) senders.push_back(in.queue[i].src);
  return senders;
}

void MessageExchange::pop(int pid) {
  Inbox& in = inbox_[index(pid)];
  in.bytes -= in.queue[in.head].payload_len;
  ++in.head;
  // A queue is in a seeded order, so its messages are read from the arena at random, each a
  // cache miss that the switch between two moves serialises. Fetching the one a few moves ahead
  // now lets that miss overlap the process's (and the others') work in between.
  if (in.head + kMoveLookahead < in.queue.size())
    __builtin_prefetch(now_.at(in.queue[in.head + kMoveLookahead].offset()));
}

bool MessageExchange::all_identical(const std::vector<Message>& queue) const {
  for (std::size_t i = 1; i < queue.size(); ++i) {
    const Message& a = queue[0];
    const Message& b = queue[i];
    // Tag and payload compared apart: the padding between them is not written.
    const std::byte* ta = now_.at(a.offset());
    const std::byte* tb = now_.at(b.offset());
    if (a.tag_len != b.tag_len || a.payload_len != b.payload_len || std::memcmp(ta, tb, a.tag_len) != 0 ||
        std::memcmp(ta + padded(a.tag_len), tb + padded(b.tag_len), a.payload_len) != 0)
      return false;
  }
  return true;
}

}  // namespace bspcheck::rt
