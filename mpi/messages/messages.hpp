// messages.hpp: BSMP on one rank (docs/semantics.md, "BSMP"): the tag size valid in the
// superstep and the one requested for the next, a message's wire form (packed into the
// exchange's buffer at the send: buffered on source), and the queue of the messages that arrived
// at the last sync, each tag and payload 16-byte aligned in one arena, valid until the next sync.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/transport/exchange.hpp"

namespace bspcheck::mpi {

class Messages {
 public:
  int tagsize() const { return tagsize_; }
  // bsp_set_tagsize: records the request and returns "the previous value" (this superstep's last
  // request if any, else the size valid now).
  int request_tagsize(int size);
  int requested() const { return request_; }  // -1: none in this superstep

  // The wire form of one message: [tag bytes][payload bytes][tag][payload].
  void append(std::vector<std::byte>& out, const void* tag, const void* payload, int nbytes) const;

  // At the sync: the old queue vanishes; `start` and `take` build the new one from the messages
  // received, in the order given; then the tag size agreed for the new superstep applies.
  void start_queue();
  // One message from rank `sender`; counts its tag and payload bytes.
  void take(Reader& in, int sender, std::int64_t* bytes_in);
  void set_tagsize(int size) {
    tagsize_ = size;
    request_ = -1;
  }

  // The queue, as the primitives read it.
  int count() const { return static_cast<int>(queue_.size() - next_); }
  std::int64_t payload_bytes() const;
  bool empty() const { return next_ >= queue_.size(); }
  int front_payload() const { return static_cast<int>(queue_[next_].payload_size); }
  int front_tag_size() const { return static_cast<int>(queue_[next_].tag_size); }
  const std::byte* front_tag() const { return arena_.data() + queue_[next_].tag_at; }
  std::byte* front_payload_data() { return arena_.data() + queue_[next_].payload_at; }
  void drop_front() { ++next_; }
  // The senders of the messages still unread (queue-unconsumed), ascending, each once.
  std::vector<int> unread_senders() const;
  // The sender of every message of the queue, in its order (a record of the run, docs/mpi.md).
  std::vector<int> queue_senders() const {
    std::vector<int> senders;
    for (const Stored& m : queue_) senders.push_back(m.sender);
    return senders;
  }

 private:
  struct Stored {
    std::size_t tag_at, payload_at;
    std::uint32_t tag_size, payload_size;
    int sender;
  };
  int tagsize_ = 0;
  int request_ = -1;
  std::vector<Stored> queue_;
  std::size_t next_ = 0;
  std::vector<std::byte> arena_;
};

}  // namespace bspcheck::mpi
