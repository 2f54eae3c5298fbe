#include "engine/core/hp_operations.hpp"

#include <cstring>

namespace bspcheck::rt {

checker::HpRecord& HpOperations::take(std::size_t i) {
  checker::HpRecord& op = log_[pending_[i]];
  pending_[i] = pending_.back();  // the order of the rest is the scheduler's to draw anyway
  pending_.pop_back();
  return op;
}

std::vector<std::size_t> HpOperations::taking_order(const std::vector<std::uint32_t>& picks) const {
  std::vector<std::size_t> pending = pending_, order;
  order.reserve(picks.size());
  for (const std::uint32_t i : picks) {  // take()'s steps on a copy
    order.push_back(pending[i]);
    pending[i] = pending.back();
    pending.pop_back();
  }
  return order;
}

void HpOperations::perform(checker::HpRecord& op) {
  std::memmove(op.dst, op.src, op.nbytes);
  op.fired = true;
}

void HpOperations::fire(checker::HpRecord& op, checker::Checker* checker, int superstep, bool during_superstep) {
  if (checker) checker->check_hp_before_fire(op, superstep);
  perform(op);
  if (checker && during_superstep) op.dst_after_fire = checker->stamps().take(op.dst, op.nbytes);
}

}  // namespace bspcheck::rt
