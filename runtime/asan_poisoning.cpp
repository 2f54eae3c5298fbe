#include "runtime/asan_poisoning.hpp"

#include <cstring>

extern "C" {
void __asan_poison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_set_death_callback(void (*callback)(void)) __attribute__((weak));
void* __asan_get_report_address(void) __attribute__((weak));
int __asan_get_report_access_type(void) __attribute__((weak));
}

namespace bspcheck::rt {

namespace {

std::function<void(const PoisonedRegion*, std::uintptr_t, bool)> g_reporter;
const Poisoning* g_active = nullptr;  // the registry of the running world

void on_asan_death() {
  if (!g_reporter) return;
  const auto addr = __asan_get_report_address ? reinterpret_cast<std::uintptr_t>(__asan_get_report_address()) : 0;
  const bool is_write = __asan_get_report_access_type && __asan_get_report_access_type() == 1;
  g_reporter(g_active && addr ? g_active->find(addr) : nullptr, addr, is_write);
}

}  // namespace

Poisoning::~Poisoning() {
  for (const PoisonedRegion& r : regions_) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
  if (g_active == this) g_active = nullptr;
}

void Poisoning::release_within(std::uintptr_t lo, std::uintptr_t hi) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const PoisonedRegion& r = regions_[i];
    if (r.lo >= lo && r.lo < hi) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    else regions_[keep++] = r;
  }
  regions_.resize(keep);
}

bool Poisoning::available() { return __asan_poison_memory_region != nullptr; }

void Poisoning::poison(const PoisonedRegion& r) {
  if (!available() || r.hi <= r.lo) return;
  g_active = this;
  regions_.push_back(r);
  __asan_poison_memory_region(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
}

void Poisoning::unpoison(const void* p, std::size_t n) {
  if (__asan_unpoison_memory_region && n) __asan_unpoison_memory_region(p, n);
}

void Poisoning::repoison(const void* p, std::size_t n) {
  if (__asan_poison_memory_region && n) __asan_poison_memory_region(p, n);
}

void Poisoning::release(Rule rule) {
  std::size_t keep = 0;
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const PoisonedRegion& r = regions_[i];
    if (r.rule == rule) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    else regions_[keep++] = r;
  }
  regions_.resize(keep);
  // Overlapping regions of other rules may have been unpoisoned with these: poison them again.
  for (const PoisonedRegion& r : regions_) repoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
}

const PoisonedRegion* Poisoning::find(std::uintptr_t addr) const {
  for (auto it = regions_.rbegin(); it != regions_.rend(); ++it)
    if (addr >= it->lo && addr < it->hi) return &*it;
  return nullptr;
}

void Poisoning::set_reporter(std::function<void(const PoisonedRegion*, std::uintptr_t, bool)> f) {
  g_reporter = std::move(f);
  if (__asan_set_death_callback) __asan_set_death_callback(g_reporter ? &on_asan_death : nullptr);
}

}  // namespace bspcheck::rt
