// checker.hpp: the rules that need more than one call to decide: collisions of writes, the
// unbuffered-operation hazards, unread messages, truncated moves, registration sites and leaks,
// and level-1 hygiene. The engine hands over facts at the moment they are known (a call, a
// barrier, the end); the checker never changes what the program sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "checker/diagnostics.hpp"
#include "checker/range_stamps.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::checker {

// A destination write about to be performed at a barrier (a put, or a get whose source has
// been read), as the engine keeps it until then: its bytes are at offset `data` of the
// superstep's payloads (engine/core/drma_buffer.hpp), which may move while the superstep runs.
struct BufferedWrite {
  void* dst;
  std::size_t data;
  std::uint32_t nbytes;
  int writer;  // process that issued the operation
  int owner;   // process whose memory is written
  rt::Site site;
  const char* call;
};

// A superstep's buffered writes as the checker sees them, gets first, then puts: the engine's
// own lists, not a copy (a copy had been a seventh of a put-heavy checked run).
struct WriteSet {
  std::span<const BufferedWrite> gets, puts;
  const std::byte* payloads = nullptr;
  std::size_t size() const { return gets.size() + puts.size(); }
  const BufferedWrite& operator[](std::size_t i) const { return i < gets.size() ? gets[i] : puts[i - gets.size()]; }
  const std::byte* bytes(const BufferedWrite& w) const { return payloads + w.data; }
};

// An unbuffered operation (hpput/hpget) of the current superstep.
struct HpRecord {
  const void* src;
  void* dst;
  std::uint32_t nbytes;
  int caller, src_owner, dst_owner;
  rt::Site site;
  const char* call;
  // Stamps (checker/range_stamps.hpp) of the source and the destination at the call, and of the
  // destination when the operation landed during the superstep.
  std::uint64_t src_at_call;
  std::uint64_t dst_at_call;
  bool fired = false;
  std::uint64_t dst_after_fire = 0;
};

// A process that pops an address it pushed earlier in the same superstep (reg-order-portability).
struct RegOrderConflict {
  int pid;
  rt::Site push_site, pop_site;
};

// A snapshot of one process's BSPlib state at bspcheck_level1_enter.
struct HygieneState {
  std::string name;
  rt::Site site;
  long registrations;  // live slots plus pushes minus pops pending for the next sync
  int next_tagsize;    // the tag size the next superstep will have
  std::size_t unread;  // messages in the queue
  int superstep;
};

class HpSourceRaces;
class RepeatedWrites;
class WritesByAddress;

class Checker {
 public:
  explicit Checker(Diagnostics& diag);
  ~Checker();

  // put-collision and hp-dst-conflict between writes landing at this barrier and the
  // destinations of this superstep's unbuffered operations.
  void check_writes(const WriteSet& writes, std::span<const HpRecord> hp, int superstep);
  // hp-src-modified and hp-dst-conflict (owner writes) for this superstep's unbuffered
  // operations, at the start of the barrier (before pending ones take effect); hp-src-modified
  // also for a source another unbuffered operation of the superstep writes, whatever the order.
  void check_hp_at_barrier(std::span<const HpRecord> hp, int superstep);
  // Before an unbuffered operation takes effect: was its destination changed since the call?
  // (Inline: it is asked at every landing, and the answer is nearly always no.)
  void check_hp_before_fire(const HpRecord& op, int superstep) {
    if (!stamps_.same(op.dst, op.nbytes, op.dst_at_call)) report_dst_written_before_fire(op, superstep);
  }
  // The stamps of this superstep's unbuffered operations' ranges, taken by the engine at a call
  // and when an operation lands; forgotten when the barrier's checks are done.
  RangeStamps& stamps() { return stamps_; }

  void queue_unconsumed(int pid, std::size_t unread, const std::vector<int>& senders, const rt::Site& site,
                        const char* call, int superstep);
  void move_truncated(int pid, std::size_t payload, std::size_t reception, const rt::Site& site, int superstep);
  // A new registration slot: warn when processes registered at different source lines (entries
  // registering NULL or 0 bytes, the usual dummies, come as NULL and pair with any line).
  void slot_created(const std::vector<const void*>& addrs, const std::vector<rt::Site>& sites, int superstep);
  // Pops of addresses pushed earlier in the same superstep, whose meaning differs between BSPlib
  // implementations (reg-order-portability).
  void registration_order(const std::vector<RegOrderConflict>& conflicts, int superstep);
  void registrations_leaked(std::size_t live, const std::vector<rt::Site>& sites, int superstep);
  void hygiene_exit(int pid, const HygieneState& at_enter, const HygieneState& now, const rt::Site& exit_site);

 private:
  // hp-src-modified: op's source is writer's destination in the same superstep (hp_source_races.hpp).
  void report_hp_source_race(const HpRecord& op, const HpRecord& writer, int superstep);
  // hp-dst-conflict: op's destination was written between its call and its landing.
  void report_dst_written_before_fire(const HpRecord& op, int superstep);

  Diagnostics& diag_;
  RangeStamps stamps_;
  std::unique_ptr<RepeatedWrites> repeated_writes_;  // check_writes' last disjoint superstep
  std::unique_ptr<WritesByAddress> by_address_;      // check_writes' buffers, kept between barriers
  std::unique_ptr<HpSourceRaces> hp_source_races_;   // check_hp_at_barrier's last superstep without one
  std::vector<std::uint32_t> site_by_write_;         // check_writes' call site numbers by write, the same
};

}  // namespace bspcheck::checker
