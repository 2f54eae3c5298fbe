#include "engine/core/registration_table.hpp"

#include <algorithm>

namespace bspcheck::rt {

int RegistrationTable::add(std::vector<Entry> entries) {
  const int id = static_cast<int>(slots_.size());
  for (std::size_t pid = 0; pid < entries.size(); ++pid)
    if (entries[pid].addr) index_[pid].push_back({entries[pid].addr, id});
  slots_.push_back(Slot{std::move(entries), true});
  ++live_;
  return id;
}

void RegistrationTable::remove(int slot) {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  if (!s.live) return;
  s.live = false;
  --live_;
  for (std::size_t pid = 0; pid < s.entries.size(); ++pid) {
    if (!s.entries[pid].addr) continue;
    auto& idx = index_[pid];
    auto it = std::find_if(idx.begin(), idx.end(), [&](const IndexItem& i) { return i.slot == slot; });
    if (it != idx.end()) idx.erase(it);
  }
  s.entries.clear();
  s.entries.shrink_to_fit();
}

std::vector<int> RegistrationTable::live_slot_ids() const {
  std::vector<int> ids;
  for (std::size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].live) ids.push_back(static_cast<int>(i));
  return ids;
}

}  // namespace bspcheck::rt
