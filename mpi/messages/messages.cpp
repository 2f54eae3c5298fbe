#include "mpi/messages/messages.hpp"

#include <algorithm>
#include <cstring>

namespace bspcheck::mpi {

namespace {
constexpr std::size_t kAlign = 16;
std::size_t aligned(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

int Messages::request_tagsize(int size) {
  const int previous = request_ >= 0 ? request_ : tagsize_;
  request_ = size;
  return previous;
}

void Messages::append(std::vector<std::byte>& out, const void* tag, const void* payload, int nbytes) const {
  append_value(out, static_cast<std::uint32_t>(tagsize_));
  append_value(out, static_cast<std::uint32_t>(nbytes));
  append_bytes(out, tag, static_cast<std::size_t>(tagsize_));
  append_bytes(out, payload, static_cast<std::size_t>(nbytes));
}

void Messages::start_queue() {
  queue_.clear();
  next_ = 0;
  arena_.clear();
}

void Messages::take(Reader& in, int sender, std::int64_t* bytes_in) {
  Stored s{};
  s.sender = sender;
  s.tag_size = in.value<std::uint32_t>();
  s.payload_size = in.value<std::uint32_t>();
  s.tag_at = aligned(arena_.size());
  s.payload_at = aligned(s.tag_at + s.tag_size);
  // The arena is filled before anyone points into it (the queue is read only after the sync),
  // so growing it here moves nothing a program holds.
  arena_.resize(aligned(s.payload_at + s.payload_size));
  in.copy_out(arena_.data() + s.tag_at, s.tag_size);
  in.copy_out(arena_.data() + s.payload_at, s.payload_size);
  *bytes_in += s.tag_size + s.payload_size;
  queue_.push_back(s);
}

std::int64_t Messages::payload_bytes() const {
  std::int64_t total = 0;
  for (std::size_t i = next_; i < queue_.size(); ++i) total += queue_[i].payload_size;
  return total;
}

}  // namespace bspcheck::mpi

namespace bspcheck::mpi {

std::vector<int> Messages::unread_senders() const {
  std::vector<int> senders;
  for (std::size_t i = next_; i < queue_.size(); ++i) senders.push_back(queue_[i].sender);
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  return senders;
}

}  // namespace bspcheck::mpi
