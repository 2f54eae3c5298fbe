#include "runtime/memory_checks/asan_poisoning.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "runtime/memory_checks/watchpoints.hpp"

extern "C" {
void __asan_poison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_set_death_callback(void (*callback)(void)) __attribute__((weak));
void __asan_set_error_report_callback(void (*callback)(const char*)) __attribute__((weak));
void* __asan_get_report_address(void) __attribute__((weak));
int __asan_get_report_access_type(void) __attribute__((weak));
int __asan_address_is_poisoned(void const volatile* addr) __attribute__((weak));
void __sanitizer_set_report_fd(void* fd) __attribute__((weak));
int __sanitizer_acquire_crash_state(void) __attribute__((weak));
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

std::uintptr_t report_address() {
  return __asan_get_report_address ? reinterpret_cast<std::uintptr_t>(__asan_get_report_address()) : 0;
}
bool report_is_write() { return __asan_get_report_access_type && __asan_get_report_access_type() == 1; }

// The address of the last warning the report callback let the program go on from: ASan's death
// callback at that same report means ASan halts all the same.
std::uintptr_t g_went_on_at = 0;

void on_asan_death() {
  if (!g_reporter) return;
  const std::uintptr_t addr = report_address();
  if (addr && addr == g_went_on_at)
    return g_reporter(nullptr, addr, report_is_write(), Caught::asan_halt_after_warning);
  g_reporter(g_active && addr ? g_active->find(addr) : nullptr, addr, report_is_write(), Caught::asan_death);
}

// While a world may see a warning, ASan's report text goes to a descriptor that cannot be open
// (beyond any RLIMIT_NOFILE: writes to it fail, and ASan ignores that) and the report callback
// prints it for the reports that are not a warning. A user's log_path is left alone: its file
// takes the text of warnings too.
constexpr int kDiscard = INT_MAX;
int g_quiet_worlds = 0;
bool g_quiet = false;  // the text is discarded now

bool can_quiet_reports() {
  static const bool can = [] {
    const char* o = std::getenv("ASAN_OPTIONS");
    return __sanitizer_set_report_fd && !(o && std::strstr(o, "log_path"));
  }();
  return can && g_hooks.poison && g_hooks.poison == __asan_poison_memory_region;  // not a test's stand-ins
}

void write_all(int fd, const char* text) {
  for (std::size_t n = std::strlen(text); n > 0;) {
    const ssize_t k = ::write(fd, text, n);
    if (k <= 0) return;
    text += k;
    n -= static_cast<std::size_t>(k);
  }
}

// Every ASan report comes here, after its text (which is `text` too) and before ASan halts, if it
// halts: a recoverable one (a program built with -fsanitize-recover=address) does not under
// halt_on_error=0. An access that is a warning goes on; every other report ends the program, as
// ASan would have without recovery. Installed when the library loads, so that no error goes on
// outside the SPMD part either.
void on_asan_report(const char* text) {
  const std::uintptr_t addr = report_address();
  const PoisonedRegion* r = g_reporter && g_active && addr ? g_active->find(addr) : nullptr;
  g_went_on_at = 0;
  if (r && Poisoning::may_go_on(*r)) {
    g_went_on_at = addr;
    g_reporter(r, addr, report_is_write(), Caught::asan_report);
    return;
  }
  if (g_quiet && text) write_all(STDERR_FILENO, text);
  // Whether ASan halts after this callback: it took the crash state before calling it if so.
  // Taking it here instead means that it does not, and that the runtime ends the program itself.
  if (!__sanitizer_acquire_crash_state || !__sanitizer_acquire_crash_state()) return;
  on_asan_death();
  std::_Exit(1);  // ASan's exit status for an error
}

[[maybe_unused]] const bool g_report_callback_installed = [] {
  if (__asan_set_error_report_callback) __asan_set_error_report_callback(&on_asan_report);
  return true;
}();

// A watchpoint on a region's last bytes saw the program touch them.
void on_watched_access(std::uintptr_t addr, bool is_write) {
  if (g_reporter && g_active) g_reporter(g_active->find(addr), addr, is_write, Caught::watchpoint);
}

}  // namespace

Poisoning::~Poisoning() {
  for (const PoisonedRegion& r : regions_) {
    if (live(r)) unpoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
    Watchpoints::remove(r.watch);
  }
  if (g_active == this) g_active = nullptr;
  regions_.clear();
  quiet_reports_while_warnings_possible();
}

void Poisoning::quiet_reports_while_warnings_possible() {
  const bool want = can_quiet_reports() && std::any_of(regions_.begin(), regions_.end(), [](const PoisonedRegion& r) {
                      return r.rule == Rule::get_dst_early_read;
                    });
  if (want == quiet_) return;
  quiet_ = want;
  g_quiet_worlds += want ? 1 : -1;
  if ((g_quiet_worlds > 0) == g_quiet) return;
  g_quiet = g_quiet_worlds > 0;
  __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<std::intptr_t>(g_quiet ? kDiscard : STDERR_FILENO)));
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
  quiet_reports_while_warnings_possible();
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
  if (r.rule == Rule::get_dst_early_read && !quiet_) quiet_reports_while_warnings_possible();
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

bool Poisoning::poisoned_within(std::uintptr_t lo, std::uintptr_t hi) const {
  return std::any_of(regions_.begin(), regions_.end(),
                     [&](const PoisonedRegion& r) { return live(r) && r.lo < hi && lo < r.hi; });
}

void Poisoning::repoison_overlapping(std::uintptr_t lo, std::uintptr_t hi) const {
  for (const PoisonedRegion& r : regions_)
    if (live(r) && r.lo < hi && lo < r.hi) repoison(reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
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

bool Poisoning::may_go_on(const PoisonedRegion& r) { return rule_severity(r.rule) == Severity::warning; }

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
  if (r->rule == Rule::hp_dst_read && r->before_call)
    return {is_write ? Rule::hp_dst_conflict : Rule::hp_dst_read,
            who + " the destination of process " + std::to_string(r->caller) + "'s " + r->call + " (on process " +
                std::to_string(r->owner) + ") in superstep " + std::to_string(r->superstep) +
                ", before the call: the access and the unbuffered operation are concurrent all the same, and it may "
                "land at any moment of the superstep (seen by running the seed again with the destination poisoned "
                "from the superstep's start)"};
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
