#include "mpi/registration/registrations.hpp"

#include <algorithm>

#include "runtime/base/hash.hpp"

namespace bspcheck::mpi {

namespace {
std::uint64_t key(const void* addr) { return reinterpret_cast<std::uintptr_t>(addr); }
}  // namespace

void Registrations::push(const void* addr, std::int64_t size, const CallSite& site) {
  calls_.push_back({true, key(addr), addr ? size : 0, site});
}

void Registrations::pop(const void* addr, const CallSite& site) { calls_.push_back({false, key(addr), 0, site}); }

int Registrations::find(const void* addr) const {
  auto it = own_.find(key(addr));
  return it == own_.end() || it->second.empty() ? -1 : it->second.back();
}

bool Registrations::pushed_now(const void* addr) const {
  for (const Call& c : calls_)
    if (c.push && c.addr == key(addr)) return true;
  return false;
}

std::vector<CallSite> Registrations::live_sites() const {
  std::vector<int> ids;
  for (const auto& [id, site] : sites_) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  std::vector<CallSite> out;
  for (int id : ids) out.push_back(sites_.at(id));
  return out;
}

Registrations::Plan Registrations::plan() const {
  Plan plan;
  Stacks shadow;  // the stacks of the addresses this superstep's calls touch, as they go
  auto stack_of = [&](std::uint64_t a) -> std::vector<int>& {
    auto it = shadow.find(a);
    if (it != shadow.end()) return it->second;
    auto own = own_.find(a);
    return shadow[a] = own == own_.end() ? std::vector<int>{} : own->second;
  };
  rt::Fnv1a64 digest;
  for (const Call& c : calls_) {
    std::vector<int>& stack = stack_of(c.addr);
    if (c.push) {
      stack.push_back(next_slot_ + static_cast<int>(plan.pushes++));
      continue;
    }
    const int slot = stack.empty() ? -1 : stack.back();
    if (!stack.empty()) stack.pop_back();
    plan.pop_slots.push_back(slot);
    ++plan.pops;
    digest.add(&slot, sizeof slot);
  }
  plan.digest = digest.value();
  return plan;
}

std::vector<Registrations::Entry> Registrations::own_pushes() const {
  std::vector<Entry> out;
  for (const Call& c : calls_)
    if (c.push) out.push_back({c.addr, c.size});
  return out;
}

std::vector<Registrations::Entry> Registrations::apply(const Plan& plan, const std::vector<Entry>& gathered,
                                                       const std::vector<bool>& skip) {
  std::vector<Entry> removed;
  const auto n = static_cast<std::size_t>(plan.pushes);
  std::size_t k = 0, j = 0;
  for (const Call& c : calls_) {
    if (c.push) {
      std::vector<Entry> entries(static_cast<std::size_t>(p_));
      for (std::size_t pid = 0; pid < entries.size(); ++pid) entries[pid] = gathered[pid * n + k];
      const int slot = next_slot_ + static_cast<int>(k++);
      slots_.emplace(slot, std::move(entries));
      sites_.emplace(slot, c.site);
      own_[c.addr].push_back(slot);
      continue;
    }
    const int slot = plan.pop_slots[j];
    if (slot < 0 || (j < skip.size() && skip[j])) {
      ++j;
      continue;
    }
    ++j;
    auto it = slots_.find(slot);
    if (it == slots_.end()) continue;
    std::vector<int>& stack = own_[c.addr];  // the pop's own address names the slot here
    stack.erase(std::remove(stack.begin(), stack.end(), slot), stack.end());
    removed.push_back(it->second[static_cast<std::size_t>(pid_)]);
    slots_.erase(it);
    sites_.erase(slot);
  }
  next_slot_ += static_cast<int>(n);
  calls_.clear();
  return removed;
}

}  // namespace bspcheck::mpi
