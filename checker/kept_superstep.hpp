// kept_superstep.hpp: a superstep's operations kept, process by process in call order, to tell
// whether a later superstep made the same ones. A kernel's supersteps repeat one pattern (an
// all-to-all, a halo exchange, a ring of hpputs), so a check whose answer depends only on the
// set of operations can keep the last superstep it cleared and clear a repeat in one pass,
// however the schedule interleaved the processes' calls: checker/repeated_writes.hpp (put
// collisions) and checker/hp_source_races.hpp (hpput sources written) do.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace bspcheck::checker {

// Item: equality-comparable, with `int process() const`, the process that made it.
template <typename Item, std::size_t kMost>
class KeptSuperstep {
 public:
  static constexpr int kProcesses = 1024;  // a superstep with a process numbered past this is not kept

  // Whether `now` is the superstep kept: the same items, each process's in the same order
  // (the processes' calls may interleave differently).
  bool same(std::span<const Item> now) const {
    if (!kept_ || now.size() != kept_n_) return false;
    std::array<std::uint16_t, kMost> seen;
    std::fill_n(seen.begin(), groups_, std::uint16_t{0});
    for (const Item& item : now) {
      const int process = item.process();
      if (process < 0 || process >= kProcesses) return false;
      const int g = group_by_process_[static_cast<std::size_t>(process)];
      if (g < 0 || seen[g] == group_size_[g]) return false;
      if (!(items_[group_start_[g] + seen[g]++] == item)) return false;
    }
    // As many items as kept and no group overfull: every group is full, so every kept item was
    // matched once, by its own process, in its place.
    return true;
  }

  // Keeps `now` in place of the superstep kept; keeps nothing when it has more than kMost items
  // or a process numbered past kProcesses.
  void keep(std::span<const Item> now) {
    forget();
    if (now.size() > kMost) return;
    std::array<std::uint16_t, kMost> group_of_item;
    for (std::size_t i = 0; i < now.size(); ++i) {
      const int process = now[i].process();
      if (process < 0 || process >= kProcesses) return forget();
      std::int16_t& g = group_by_process_[static_cast<std::size_t>(process)];
      if (g < 0) {
        g = static_cast<std::int16_t>(groups_);
        group_process_[groups_] = process;
        group_size_[groups_++] = 0;
      }
      ++group_size_[static_cast<std::size_t>(g)];
      group_of_item[i] = static_cast<std::uint16_t>(g);
    }
    std::array<std::uint16_t, kMost> next;
    for (std::size_t g = 0, at = 0; g < groups_; at += group_size_[g++])
      next[g] = group_start_[g] = static_cast<std::uint16_t>(at);
    for (std::size_t i = 0; i < now.size(); ++i) items_[next[group_of_item[i]]++] = now[i];
    kept_n_ = now.size();
    kept_ = true;
  }

  void forget() {
    if (!table_ready_) group_by_process_.fill(-1), table_ready_ = true;
    for (std::size_t g = 0; g < groups_; ++g) group_by_process_[static_cast<std::size_t>(group_process_[g])] = -1;
    groups_ = 0;
    kept_ = false;
  }

 private:
  bool kept_ = false, table_ready_ = false;
  std::size_t kept_n_ = 0, groups_ = 0;
  std::array<Item, kMost> items_;  // grouped by process, each group in call order
  std::array<int, kMost> group_process_;
  std::array<std::uint16_t, kMost> group_start_, group_size_;
  std::array<std::int16_t, kProcesses> group_by_process_;  // -1: no group
};

}  // namespace bspcheck::checker
