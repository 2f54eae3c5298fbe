// rank_bsmp.cpp: BSMP calls of one rank (BSPlib 4), checked as the engine checks them
// (engine/core/world_bsmp.cpp: the same rules and text); a send is packed into the exchange's
// buffer at the call (buffered on source), the queue is the one the last sync delivered.
#include <algorithm>
#include <cstring>

#include "mpi/api/rank.hpp"

namespace bspcheck::mpi {

void Rank::set_tagsize(int* tag_nbytes) {
  record(trace::Call::set_tagsize, -1, tag_nbytes ? *tag_nbytes : -1);
  if (!tag_nbytes || *tag_nbytes < 0) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes " +
                                 (tag_nbytes ? "a negative tag size" : "a NULL pointer") + " to bsp_set_tagsize");
    return;
  }
  tagsize_site_ = site_;
  *tag_nbytes = messages_.request_tagsize(*tag_nbytes);
}

void Rank::send(int pid, const void* tag, const void* payload, int nbytes) {
  record(trace::Call::send, pid, nbytes, payload, payload && nbytes > 0 ? static_cast<std::size_t>(nbytes) : 0);
  if (pid < 0 || pid >= p_) {
    report(Rule::bad_pid, "process " + std::to_string(pid_) + " sends to process " + std::to_string(pid) +
                              ", outside 0.." + std::to_string(p_ - 1));
  } else if (nbytes < 0) {
    report(Rule::api_misuse,
           "process " + std::to_string(pid_) + " sends a negative payload size (" + std::to_string(nbytes) + ")");
  } else if ((!payload && nbytes > 0) || (!tag && messages_.tagsize() > 0)) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL " +
                                 (!payload && nbytes > 0 ? "payload" : "tag") + " to " + site_.call);
  } else {
    std::vector<std::byte>& out = exchange_->outgoing(pid);
    append_value(out, Record::message);
    messages_.append(out, tag, payload, nbytes);
    bytes_out_ += messages_.tagsize() + nbytes;
  }
}

void Rank::qsize(int* nmessages, int* accum_nbytes) {
  record(trace::Call::qsize, -1, 0);
  if (!nmessages || !accum_nbytes)
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL " +
                                 (!nmessages ? "message count" : "byte count") + " pointer to bsp_qsize");
  if (nmessages) *nmessages = messages_.count();
  if (accum_nbytes) *accum_nbytes = static_cast<int>(messages_.payload_bytes());
}

void Rank::get_tag(int* status, void* tag) {
  record(trace::Call::get_tag, -1, 0);
  if (!status) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL status pointer to bsp_get_tag");
  } else if (messages_.empty()) {
    *status = -1;
  } else {
    *status = messages_.front_payload();
    if (const int n = messages_.front_tag_size(); n > 0) {
      if (tag) std::memcpy(tag, messages_.front_tag(), static_cast<std::size_t>(n));
      else report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL tag buffer to bsp_get_tag");
    }
  }
}

void Rank::move(void* payload, int reception_nbytes) {
  record(trace::Call::move, -1, reception_nbytes);
  if (reception_nbytes < 0) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a negative reception size to bsp_move");
  } else if (messages_.empty()) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " calls bsp_move on an empty queue");
  } else {
    const int n = std::min(messages_.front_payload(), reception_nbytes);
    if (n && !payload) {
      report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL payload buffer to bsp_move");
      return;
    }
    if (n) std::memcpy(payload, messages_.front_payload_data(), static_cast<std::size_t>(n));
    if (reception_nbytes > 0 && n < messages_.front_payload())
      report(Rule::move_truncated, "process " + std::to_string(pid_) + " moved a payload of " +
                                       std::to_string(messages_.front_payload()) + " bytes into a reception area of " +
                                       std::to_string(n) + " bytes: " + std::to_string(messages_.front_payload() - n) +
                                       " bytes were dropped");
    messages_.drop_front();
  }
}

int Rank::hpmove(void** tag_ptr, void** payload_ptr) {
  record(trace::Call::hpmove, -1, 0);
  if (!tag_ptr || !payload_ptr) {
    report(Rule::api_misuse, "process " + std::to_string(pid_) + " passes a NULL " + (!tag_ptr ? "tag" : "payload") +
                                 " pointer to bsp_hpmove");
    return -1;
  }
  if (messages_.empty()) return -1;
  // Pointers into the queue's arena, valid until the next sync replaces it.
  *tag_ptr = const_cast<std::byte*>(messages_.front_tag());
  *payload_ptr = messages_.front_payload_data();
  const int n = messages_.front_payload();
  messages_.drop_front();
  return n;
}

}  // namespace bspcheck::mpi
