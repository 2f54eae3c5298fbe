#include "runtime/memory_checks/asan_poisoning.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/memory_checks/watchpoints.hpp"

extern "C" {
void __asan_poison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_set_death_callback(void (*callback)(void)) __attribute__((weak));
void* __asan_get_report_address(void) __attribute__((weak));
int __asan_get_report_access_type(void) __attribute__((weak));
int __asan_address_is_poisoned(void const volatile* addr) __attribute__((weak));
}

namespace bspcheck::rt {

namespace {

// AddressSanitizer's functions, or a test's (Poisoning::set_hooks).
Poisoning::Hooks asan_hooks() {
  return {__asan_poison_memory_region, __asan_unpoison_memory_region, __asan_address_is_poisoned};
}
Poisoning::Hooks g_hooks = asan_hooks();

Poisoning::Reporter g_reporter;
const Poisoning* g_active = nullptr;  // the registry of the running world

void on_asan_death() {
  if (!g_reporter) return;
  const auto addr = __asan_get_report_address ? reinterpret_cast<std::uintptr_t>(__asan_get_report_address()) : 0;
  const bool is_write = __asan_get_report_access_type && __asan_get_report_access_type() == 1;
  g_reporter(g_active && addr ? g_active->find(addr) : nullptr, addr, is_write, false);
}

// A watchpoint on a region's last bytes saw the program touch them.
void on_watched_access(std::uintptr_t addr, bool is_write) {
  if (g_reporter && g_active) g_reporter(g_active->find(addr), addr, is_write, true);
}

}  // namespace

Poisoning::~Poisoning() {
  for (const PoisonedRegion& r : regions_) {
    if (live(r)) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    Watchpoints::remove(r.watch);
  }
  if (g_active == this) g_active = nullptr;
}

void Poisoning::release_within(std::uintptr_t lo, std::uintptr_t hi) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const PoisonedRegion& r = regions_[i];
    if (!(r.lo >= lo && r.lo < hi)) {
      regions_[keep++] = r;
      continue;
    }
    if (live(r)) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    Watchpoints::remove(r.watch);
  }
  forget(keep);
}

void Poisoning::forget(std::size_t keep) {
  regions_.resize(keep);
  private_regions_ = 0;
  for (const PoisonedRegion& r : regions_) private_regions_ += r.private_to >= 0;
}

void Poisoning::lift_private_regions() {
  for (const PoisonedRegion& r : regions_)
    if (r.private_to == resident_) {
      unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
      Watchpoints::set_enabled(r.watch, false);
    }
}

void Poisoning::switch_private_regions(int to) {
  if (to == resident_) return;
  // All of the outgoing process's first: its regions and the incoming one's may be the same bytes.
  lift_private_regions();
  for (const PoisonedRegion& r : regions_)
    if (r.private_to == to) {
      repoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
      Watchpoints::set_enabled(r.watch, true);
    }
}

void Poisoning::set_hooks(const Hooks& hooks) { g_hooks = hooks.poison ? hooks : asan_hooks(); }

bool Poisoning::available() { return g_hooks.poison != nullptr; }

void Poisoning::poison(const PoisonedRegion& r) {
  if (!available() || r.hi <= r.lo) return;
  g_active = this;
  regions_.push_back(r);
  private_regions_ += r.private_to >= 0;
  if (live(r)) g_hooks.poison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
  regions_.back().watch = watch_edge(r, live(r));
}

int Poisoning::watch_edge(const PoisonedRegion& r, bool enabled) {
  // ASan poisons a granule the region ends in only if the byte after the region is poisoned
  // already; else the region's bytes in that granule stay readable.
  // Message storage of past supersteps stays poisoned for a while: its regions would hold the
  // four registers from the destinations of the running superstep, which are released at its end.
  constexpr std::uintptr_t granule = 8;
  if (r.rule == Rule::hpmove_stale || r.hi % granule == 0 || !g_hooks.is_poisoned ||
      g_hooks.is_poisoned(reinterpret_cast<const void*>(r.hi)))
    return -1;
  if (!Watchpoints::available()) {  // the probe saw no watchpoint fire: this end goes unchecked
    ++unwatched_;
    return -1;
  }
  return Watchpoints::watch(std::max(r.lo, r.hi - r.hi % granule), r.hi, enabled);
}

void Poisoning::unpoison(const void* p, std::size_t n) {
  if (g_hooks.unpoison && n) g_hooks.unpoison(p, n);
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  Watchpoints::suspend_within(lo, lo + n);
}

void Poisoning::repoison(const void* p, std::size_t n) {
  if (g_hooks.poison && n) g_hooks.poison(p, n);
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  Watchpoints::resume_within(lo, lo + n);
}

void Poisoning::release(Rule rule) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const PoisonedRegion& r = regions_[i];
    if (r.rule != rule) {
      regions_[keep++] = r;
      continue;
    }
    if (live(r)) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    Watchpoints::remove(r.watch);
  }
  forget(keep);
  // Overlapping regions of other rules may have been unpoisoned with these: poison them again.
  for (const PoisonedRegion& r : regions_)
    if (live(r)) repoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
}

const PoisonedRegion* Poisoning::find(std::uintptr_t addr) const {
  for (auto it = regions_.rbegin(); it != regions_.rend(); ++it)
    if (addr >= it->lo && addr < it->hi && live(*it)) return &*it;
  return nullptr;
}

void Poisoning::set_reporter(Reporter f) {
  g_reporter = std::move(f);
  if (__asan_set_death_callback) __asan_set_death_callback(g_reporter ? &on_asan_death : nullptr);
  Watchpoints::set_handler(g_reporter ? &on_watched_access : nullptr);
}

PoisonedAccess Poisoning::describe_access(const PoisonedRegion* r, int pid, bool is_write, const char* last_call) {
  if (!r)
    return {Rule::crash, "AddressSanitizer stopped process " + std::to_string(pid) +
                             " (its report is above); the last BSPlib call of the process was " + last_call};
  const std::string who = "process " + std::to_string(pid) + (is_write ? " writes" : " reads");
  if (r->rule == Rule::hp_dst_read)
    return {is_write ? Rule::hp_dst_conflict : Rule::hp_dst_read,
            who + " the destination of process " + std::to_string(r->caller) + "'s " + r->call + " (on process " +
                std::to_string(r->owner) + ") during the superstep; an unbuffered operation may land at any moment"};
  if (r->rule == Rule::get_dst_early_read)
    return {r->rule,
            who + " the destination of its " + r->call + " of superstep " + std::to_string(r->superstep) +
                (is_write ? " before the bsp_sync that overwrites it: the value written is lost there"
                          : " before the bsp_sync that writes it: it sees the contents from before the " +
                                std::string(r->call) + ", not the value being fetched (defined, but rarely meant)")};
  return {r->rule, who + " message storage returned by bsp_hpmove in superstep " + std::to_string(r->superstep) +
                       ", which stayed valid only until the end of that superstep"};
}

}  // namespace bspcheck::rt
