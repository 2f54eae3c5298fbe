// hp_operations.hpp: the unbuffered operations of a superstep (bsp_hpput, bsp_hpget; BSPlib
// 3.2.2, 3.3.2). Each takes effect at some moment between its call and the barrier: the engine
// performs a pending one at a switch point or at the barrier, which one and when drawn from the
// scheduler. The log keeps every operation of the superstep, performed or not, for the checker's
// hazard rules; World wires the checker and poisoning around perform().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "checker/checker.hpp"
#include "runtime/base/pod_vector.hpp"

namespace bspcheck::rt {

class HpOperations {
 public:
  // A new operation, pending until performed.
  void add(const checker::HpRecord& op) {
    pending_.push_back(log_.size());
    log_.push_back(op);
  }
  bool any_pending() const { return !pending_.empty(); }
  std::size_t pending() const { return pending_.size(); }
  // The i-th pending operation (0 <= i < pending(), the scheduler's choice), no longer pending.
  checker::HpRecord& take(std::size_t i);
  // Copies its bytes now and marks it performed.
  static void perform(checker::HpRecord& op);
  // An operation takes effect: the checker (when there is one) first looks whether its
  // destination was written since the call, then it is performed; during the superstep the
  // bytes that landed are stamped for the barrier's check that nothing overwrites them
  // (checker::Checker::check_hp_at_barrier; at the barrier that check is past).
  static void fire(checker::HpRecord& op, checker::Checker* checker, int superstep, bool during_superstep);

  // The log indices of the pending operations in the order that taking picks[0], picks[1], ...
  // (each a pending index at its moment, as take() is given) would take them.
  std::vector<std::size_t> taking_order(const std::vector<std::uint32_t>& picks) const;
  // Asks the cache for log entry k's record, or (once the record is at hand) for its bytes.
  void prefetch_record(std::size_t k) const { __builtin_prefetch(&log_[k]); }
  void prefetch_bytes(std::size_t k) const {
    __builtin_prefetch(log_[k].src);
    __builtin_prefetch(log_[k].dst, 1);
  }

  // Every operation of this superstep, in call order.
  std::span<const checker::HpRecord> log() const { return {log_.data(), log_.size()}; }
  // The barrier has passed: a new superstep's log (nothing may be pending).
  void clear() { log_.clear(); }

 private:
  PodVector<checker::HpRecord> log_;  // grows with realloc: a superstep may hold a million
  std::vector<std::size_t> pending_;  // indices into log_ of those not yet performed
};

}  // namespace bspcheck::rt
