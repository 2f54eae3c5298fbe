#include "engine/core/drma_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace bspcheck::rt {

void DrmaBuffer::put(void* dst, const void* src, std::uint32_t nbytes, int writer, int owner, const Site& site,
                     const char* call) {
  const std::size_t off = data_.append(src, nbytes);
  puts_.push_back({dst, off, nbytes, writer, owner, site, call});
}

void DrmaBuffer::get(const void* src, void* dst, std::uint32_t nbytes, int caller, int remote, const Site& site) {
  gets_.push_back({src, dst, nbytes, caller, remote, site});
}

void DrmaBuffer::read_get_sources() {
  for (const PendingGet& g : gets_) {
    const std::size_t off = data_.append(g.src, g.nbytes);
    get_writes_.push_back({g.dst, off, g.nbytes, g.caller, g.caller, g.site, "bsp_get"});
  }
  gets_.clear();
}

void DrmaBuffer::land(Scheduler& sched) {
  write_all(get_writes_, sched);
  write_all(puts_, sched);
  data_.clear();  // every payload has landed: the next superstep reuses the space
}

void DrmaBuffer::write_all(PodVector<Write>& writes, Scheduler& sched) {
  // The seeded order is drawn over 4-byte indices, not over the 64-byte records themselves (the
  // same draws and the same permutation): a shuffle of a million records had moved 64 MB at
  // random. The records, their payloads and destinations are then read in that random order, so
  // they are prefetched ahead: a record 16 writes ahead, its bytes and destination 8 ahead.
  order_.resize(writes.size());
  std::iota(order_.begin(), order_.end(), 0u);
  // An exploring strategy is offered the order as a choice only where the order can change
  // memory (writes that overlap with different bytes); otherwise they land in call order.
  if (!sched.exploring() || can_collide(writes)) sched.shuffle(order_, ChoiceKind::write_order);
  const std::size_t n = order_.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (k + 16 < n) __builtin_prefetch(&writes[order_[k + 16]]);
    if (k + 8 < n) {
      const Write& ahead = writes[order_[k + 8]];
      __builtin_prefetch(data_.at(ahead.data));
      __builtin_prefetch(ahead.dst, 1);
    }
    const Write& w = writes[order_[k]];
    std::memmove(w.dst, data_.at(w.data), w.nbytes);
  }
  writes.clear();
}

bool DrmaBuffer::can_collide(const PodVector<Write>& writes) const {
  std::vector<const Write*> sorted;
  for (const Write& w : writes) sorted.push_back(&w);
  std::sort(sorted.begin(), sorted.end(), [](const Write* a, const Write* b) { return a->dst < b->dst; });
  for (std::size_t i = 0; i < sorted.size(); ++i)
    for (std::size_t j = i + 1; j < sorted.size(); ++j) {
      const auto* a = static_cast<const std::byte*>(sorted[i]->dst);
      const auto* b = static_cast<const std::byte*>(sorted[j]->dst);
      if (b >= a + sorted[i]->nbytes) break;
      const std::size_t overlap = std::min<std::size_t>(a + sorted[i]->nbytes - b, sorted[j]->nbytes);
      if (std::memcmp(data_.at(sorted[i]->data) + (b - a), data_.at(sorted[j]->data), overlap) != 0) return true;
    }
  return false;
}

}  // namespace bspcheck::rt
