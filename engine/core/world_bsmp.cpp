// world_bsmp.cpp: World's BSMP calls (BSPlib 4): each is checked here, then handed to
// engine/core/message_exchange.hpp; the barrier agrees on the tag size and delivers.
#include "engine/core/world.hpp"

#include "replay/trace_format.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace bspcheck::rt {

void World::set_tagsize(int* tag_nbytes) {
  traced_call(trace::Call::set_tagsize, -1, tag_nbytes ? *tag_nbytes : -1);
  Process& me = self();
  if (!tag_nbytes || *tag_nbytes < 0) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes " +
                                 (tag_nbytes ? "a negative tag size" : "a NULL pointer") + " to bsp_set_tagsize");
  } else {
    // "The previous value of the tag size", which the caller may pass back to reinstate it: this
    // superstep's last request if there was one, else the size valid now (as BSPonMPI and the
    // Oxford toolset answer, whose test suites check a second call in one superstep).
    const int previous = me.tagsize_request >= 0 ? me.tagsize_request : messages_.tagsize();
    me.tagsize_request = *tag_nbytes;
    tagsize_requests_ = true;
    me.tagsize_site = me.site;
    *tag_nbytes = previous;
  }
}

void World::apply_tagsize() {
  bool any = false, agree = true;
  int value = -1;
  for (const Process& pr : procs_) {
    if (pr.tagsize_request >= 0) any = true;
    if (pr.pid == 0) value = pr.tagsize_request;
    else if (pr.tagsize_request != value) agree = false;
  }
  if (!any) return;
  if (!agree) {
    Finding f;
    f.rule = rule_id(Rule::tagsize_mismatch);
    std::ostringstream s;
    s << "the processes set different tag sizes in this superstep (";
    for (const Process& pr : procs_) {
      s << (pr.pid ? ", " : "") << "process " << pr.pid << ": ";
      if (pr.tagsize_request >= 0) s << pr.tagsize_request;
      else s << "no call";
      f.processes.push_back(pr.pid);
      f.locations.push_back(diag_.location(pr.tagsize_request >= 0 ? pr.tagsize_site : pr.site, pr.pid,
                                           pr.tagsize_request >= 0 ? "bsp_set_tagsize" : pr.call));
    }
    s << ")";
    f.message = s.str();
    f.superstep = superstep_;
    diag_.report(std::move(f));
  }
  for (const Process& pr : procs_)
    if (pr.tagsize_request >= 0) {
      value = pr.tagsize_request;  // process 0's value when it set one, else the first setter's
      break;
    }
  if (procs_[0].tagsize_request >= 0) value = procs_[0].tagsize_request;
  messages_.set_tagsize(value);
  for (Process& pr : procs_) pr.tagsize_request = -1;
}

bool World::send(int pid, const void* tag, const void* payload, int payload_nbytes) {
  traced_call(trace::Call::send, pid, payload_nbytes, payload,
              payload && payload_nbytes > 0 ? static_cast<std::size_t>(payload_nbytes) : 0);
  Process& me = self();
  if (pid < 0 || pid >= p_) {
    report(Rule::bad_pid, "process " + std::to_string(me.pid) + " sends to process " + std::to_string(pid) +
                              ", outside 0.." + std::to_string(p_ - 1));
  } else if (payload_nbytes < 0) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " sends a negative payload size (" +
                                 std::to_string(payload_nbytes) + ")");
  } else if ((!payload && payload_nbytes > 0) || (!tag && messages_.tagsize() > 0)) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL " +
                                 (!payload && payload_nbytes > 0 ? "payload" : "tag") + " to " + me.call);
  } else {
    // Buffered on source: tag and payload are copied now.
    messages_.send(me.pid, pid, tag, payload, static_cast<std::uint32_t>(payload_nbytes));
    comm_.transfer(me.pid, pid,
                   static_cast<std::size_t>(messages_.tagsize()) + static_cast<std::size_t>(payload_nbytes));
    return true;
  }
  return false;
}

void World::hpsend(int pid, const void* tag, const void* payload, int payload_nbytes) {
  if (!send(pid, tag, payload, payload_nbytes)) return;
  if (!checker_) return;
  if (globals_) globals_->flush();  // tag and payload may be the running process's private globals
  hold_until_barrier(running_, tag, static_cast<std::size_t>(messages_.tagsize()));
  hold_until_barrier(running_, payload, static_cast<std::size_t>(payload_nbytes));
}

void World::hold_until_barrier(int owner, const void* p, std::size_t n) {
  if (!checker_ || !p || n == 0) return;
  const Process& me = self();
  checker::HpRecord r{
      canonical(owner, p), nullptr, static_cast<std::uint32_t>(n), me.pid, owner, me.pid, me.site, me.call, 0, 0};
  r.src_at_call = checker_->stamps().take(r.src, r.nbytes);
  held_sources_.push_back(r);
}

void World::deliver_messages() {
  // Messages sent in this superstep become readable in the next one, in a seeded order; the
  // unread ones of this superstep vanish.
  if (checker_)
    for (int pid : messages_.readable_pids())  // ascending
      if (const std::size_t n = messages_.pending(pid)) {
        const Process& pr = procs_[static_cast<std::size_t>(pid)];
        checker_->queue_unconsumed(pid, n, messages_.pending_senders(pid), pr.site, pr.call, superstep_);
      }
  if (poisoning_ && messages_.readable_storage_bytes() > 0) {
    // Keep this superstep's message storage, poisoned, so that a bsp_hpmove pointer used after
    // the superstep hits it (hpmove-stale); the oldest retired storage is released.
    auto retired = std::make_unique<ByteArena>();
    messages_.retire_readable_storage(*retired);
    const auto lo = reinterpret_cast<std::uintptr_t>(retired->at(0));
    poison_.poison({lo, lo + retired->size(), Rule::hpmove_stale, -1, -1, superstep_, Site{}, "bsp_hpmove"});
    for (const PoisonedRegion& h : hpmove_handouts_) poison_.poison(h);  // with their call sites
    retired_messages_.push_back(std::move(retired));
    if (retired_messages_.size() > 4) {
      const ByteArena& oldest = *retired_messages_.front();
      const auto olo = reinterpret_cast<std::uintptr_t>(oldest.at(0));
      poison_.release_within(olo, olo + oldest.size());
      retired_messages_.erase(retired_messages_.begin());
    }
  }
  hpmove_handouts_.clear();
  messages_.deliver(*sched_);
}

void World::qsize(int* nmessages, int* accum_nbytes) {
  traced_call(trace::Call::qsize, -1, 0);
  Process& me = self();
  // BSPlib writes both results: a NULL is a misuse (MulticoreBSP's optional size is handled by
  // its front end, engine/frontends/mcbsp_api.cpp, before the call reaches here).
  if (!nmessages || !accum_nbytes)
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL " +
                                 (!nmessages ? "message count" : "byte count") + " pointer to bsp_qsize");
  if (nmessages) *nmessages = static_cast<int>(messages_.pending(me.pid));
  if (accum_nbytes) *accum_nbytes = static_cast<int>(messages_.pending_bytes(me.pid));
}

void World::get_tag(int* status, void* tag) {
  traced_call(trace::Call::get_tag, -1, 0);
  Process& me = self();
  if (!status) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL status pointer to bsp_get_tag");
  } else if (const Message* first = messages_.first(me.pid); !first) {
    *status = -1;
  } else {
    const Message& m = *first;
    *status = static_cast<int>(m.payload_len);
    if (m.tag_len) {
      if (tag) std::memcpy(tag, messages_.tag(m), m.tag_len);
      else report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL tag buffer to bsp_get_tag");
    }
  }
}

void World::move(void* payload, int reception_nbytes) {
  traced_call(trace::Call::move, -1, reception_nbytes);
  Process& me = self();
  if (reception_nbytes < 0) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a negative reception size to bsp_move");
  } else if (!messages_.first(me.pid)) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " calls bsp_move on an empty queue");
  } else {
    const Message& m = *messages_.first(me.pid);
    std::size_t n = std::min<std::size_t>(m.payload_len, static_cast<std::size_t>(reception_nbytes));
    if (n && !payload) {
      report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL payload buffer to bsp_move");
    } else {
      if (n) std::memcpy(payload, messages_.payload(m), n);
      if (checker_ && reception_nbytes > 0 && n < m.payload_len)
        checker_->move_truncated(me.pid, m.payload_len, n, me.site, superstep_);
      messages_.pop(me.pid);
    }
  }
}

int World::hpmove(void** tag_ptr, void** payload_ptr) {
  traced_call(trace::Call::hpmove, -1, 0);
  Process& me = self();
  int result = -1;
  if (!tag_ptr || !payload_ptr) {
    // Nothing is consumed: the message stays first in the queue, as with bsp_move's NULL buffer.
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL " + (!tag_ptr ? "tag" : "payload") +
                                 " pointer to bsp_hpmove");
  } else if (const Message* first = messages_.first(me.pid)) {
    const Message& m = *first;
    // The pointers stay valid until the end of the superstep: the readable messages' storage is
    // only replaced at the barrier.
    *tag_ptr = messages_.tag(m);
    *payload_ptr = messages_.payload(m);
    if (poisoning_) {
      const auto lo = reinterpret_cast<std::uintptr_t>(messages_.tag(m));
      hpmove_handouts_.push_back({lo, lo + MessageExchange::footprint(m), Rule::hpmove_stale, me.pid, me.pid,
                                  superstep_, me.site, "bsp_hpmove"});
    }
    result = static_cast<int>(m.payload_len);
    messages_.pop(me.pid);
  }
  return result;
}

}  // namespace bspcheck::rt
