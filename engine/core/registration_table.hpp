// registration_table.hpp: the sequence of registration slots of the BSPlib paper, section 3.1.
//
// The k-th bsp_push_reg of a superstep on every process forms one slot holding p entries
// (address, size), one per process; sizes may differ per process and a NULL address registers
// nothing on that process. A put or get names a slot by the caller's own address and reaches the
// target's entry of the most recent slot holding that address. Pops remove a named slot, in any
// order, but every process must name the same one.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class RegistrationTable {
 public:
  struct Entry {
    const void* addr = nullptr;
    long size = 0;
    Site site;
  };

  explicit RegistrationTable(int nprocs) : index_(static_cast<std::size_t>(nprocs)) {}

  // Most recent live slot in which process pid registered addr, or -1. NULL is never found.
  int find(int pid, const void* addr) const {
    if (!addr) return -1;
    const auto& idx = index_[static_cast<std::size_t>(pid)];
    for (auto it = idx.rbegin(); it != idx.rend(); ++it)
      if (it->addr == addr) return it->slot;
    return -1;
  }

  const Entry& entry(int slot, int pid) const {
    return slots_[static_cast<std::size_t>(slot)].entries[static_cast<std::size_t>(pid)];
  }

  // Appends a slot (the newest); entries has one element per process.
  int add(std::vector<Entry> entries);
  void remove(int slot);
  std::size_t live_slots() const { return live_; }
  // Whether slot is one of the table's and still registered (a slot number from another run).
  bool is_live(int slot) const {
    return slot >= 0 && static_cast<std::size_t>(slot) < slots_.size() && slots_[static_cast<std::size_t>(slot)].live;
  }
  // Live slot ids, oldest first.
  std::vector<int> live_slot_ids() const;

 private:
  struct Slot {
    std::vector<Entry> entries;
    bool live = true;
  };
  struct IndexItem {
    const void* addr;
    int slot;
  };
  std::vector<Slot> slots_;
  std::vector<std::vector<IndexItem>> index_;  // per process, oldest slot first
  std::size_t live_ = 0;
};

}  // namespace bspcheck::rt
