#include "runtime/isolation/sanitizer_shadow.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include <atomic>

// The sanitizers' interfaces (<sanitizer/asan_interface.h>, <sanitizer/lsan_interface.h>), weak:
// present only in a program built with them.
extern "C" void __asan_get_shadow_mapping(std::size_t* scale, std::size_t* offset) __attribute__((weak));
extern "C" int __lsan_do_recoverable_leak_check() __attribute__((weak));
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, std::size_t),
                                                         void (*)(const volatile void*)) __attribute__((weak));

namespace bspcheck::rt {

namespace {

constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kHighestUserAddress = (std::uintptr_t{1} << 47) - 1;

// The value of a sanitizer option in the environment variable `variable` (the last one wins, as
// in the sanitizers' own parser), or null.
const char* sanitizer_option(const char* variable, const char* name) {
  const char* options = std::getenv(variable);
  const std::size_t n = std::strlen(name);
  const char* value = nullptr;
  for (const char* p = options; p && (p = std::strstr(p, name)); p += n)
    if ((p == options || p[-1] == ':' || p[-1] == ' ' || p[-1] == ',') && p[n] == '=') value = p + n + 1;
  return value;
}

// LeakSanitizer's exit status when it finds leaks: its `exitcode` flag, as the options name it
// (the last one wins, as in the sanitizers' own parser), else the default of the sanitizer that
// checks (AddressSanitizer sets it to 1, LeakSanitizer alone keeps 23).
int leak_exit_code() {
  int code = __asan_get_shadow_mapping ? 1 : 23;
  if (const char* v = sanitizer_option(__asan_get_shadow_mapping ? "ASAN_OPTIONS" : "LSAN_OPTIONS", "exitcode"))
    code = std::atoi(v);
  return code;
}

bool option_is_off(const char* v) { return v && (std::strncmp(v, "0", 1) == 0 || std::strncmp(v, "false", 5) == 0); }

// In the saved memory: a worker's every run finds it as the worker set it.
bool g_worker_checks_leaks = false;
bool g_checking = false;  // in exit_status_after_leak_check's own check

void check_leaks_and_end_if_leaked() {
  std::fflush(nullptr);  // what exit would still write: a leak ends the process here
  bool leaked = false;
  const int code = exit_status_after_leak_check(0, &leaked);
  if (leaked) std::_Exit(code);
}

void check_leaks_at_exit() {
  if (!g_worker_checks_leaks) check_leaks_and_end_if_leaked();
}

// The blocks allocated since the moment (start_counting_blocks) and not freed since: an open
// addressing table of their addresses, in the saved memory, so that every run of a worker finds
// it as the moment left it, empty. Only the sanitizer's allocation hooks change it; a program
// with threads may call them at once, so a spin lock keeps them apart.
constexpr std::size_t kBlockSlots = std::size_t{1} << 14;
struct RunBlocks {
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
  bool counting;
  bool overflowed;  // more blocks alive than the table holds: treated as some alive
  std::size_t alive;
  // ~address, 0 for none: not the address itself, which LeakSanitizer would find in this global
  // and count as a pointer to the block, so that no block would ever leak.
  std::uintptr_t slots[kBlockSlots];
} g_blocks;

std::size_t slot_of(std::uintptr_t a) { return (a >> 4) * 0x9e3779b97f4a7c15ULL >> (64 - 14); }  // a: ~address

void locked(void (*f)(std::uintptr_t), const volatile void* p) {
  if (!g_blocks.counting) return;
  while (g_blocks.lock.test_and_set(std::memory_order_acquire)) {
  }
  f(~reinterpret_cast<std::uintptr_t>(p));
  g_blocks.lock.clear(std::memory_order_release);
}

void insert(std::uintptr_t a) {
  if (g_blocks.overflowed || g_blocks.alive >= kBlockSlots / 2) {
    g_blocks.overflowed = true;
    return;
  }
  std::size_t i = slot_of(a);
  while (g_blocks.slots[i] != 0) i = (i + 1) & (kBlockSlots - 1);
  g_blocks.slots[i] = a;
  ++g_blocks.alive;
}

// Linear probing's deletion by shifting back: no tombstones, so the table stays as a fresh one.
void erase(std::uintptr_t a) {
  std::size_t i = slot_of(a);
  while (g_blocks.slots[i] != 0 && g_blocks.slots[i] != a) i = (i + 1) & (kBlockSlots - 1);
  if (g_blocks.slots[i] == 0) return;  // allocated before the moment
  --g_blocks.alive;
  for (std::size_t hole = i, j = (i + 1) & (kBlockSlots - 1);; j = (j + 1) & (kBlockSlots - 1)) {
    if (g_blocks.slots[j] == 0) {
      g_blocks.slots[hole] = 0;
      return;
    }
    const std::size_t home = slot_of(g_blocks.slots[j]);
    if (((j - home) & (kBlockSlots - 1)) >= ((j - hole) & (kBlockSlots - 1))) {
      g_blocks.slots[hole] = g_blocks.slots[j];
      hole = j;
    }
  }
}

void on_allocated(const volatile void* p, std::size_t) { locked(&insert, p); }
void on_freed(const volatile void* p) { locked(&erase, p); }

}  // namespace

void start_counting_blocks() {
  if (!__sanitizer_install_malloc_and_free_hooks || !__lsan_do_recoverable_leak_check) return;
  if (!g_blocks.counting && __sanitizer_install_malloc_and_free_hooks(&on_allocated, &on_freed) == 0) return;
  g_blocks.counting = true;
}

bool blocks_alive_since_start() { return !g_blocks.counting || g_blocks.overflowed || g_blocks.alive > 0; }

ShadowLayout shadow_layout() {
  static const ShadowLayout layout = [] {
    ShadowLayout l{};
    if (!__asan_get_shadow_mapping) return l;
    std::size_t scale = 0, offset = 0;
    __asan_get_shadow_mapping(&scale, &offset);
    l.present = true;
    l.scale = static_cast<unsigned>(scale);
    l.offset = offset;
    l.lo = offset & ~(kPage - 1);
    l.hi = (l.shadow_of(kHighestUserAddress) + kPage) & ~(kPage - 1);
    return l;
  }();
  return layout;
}

int exit_status_after_leak_check(int exit_status, bool* leaked) {
  *leaked = false;
  if (!__lsan_do_recoverable_leak_check) return exit_status;
  const int code = leak_exit_code();  // before the check, which may change what it reads
  g_checking = true;
  *leaked = __lsan_do_recoverable_leak_check() != 0;
  g_checking = false;
  return *leaked ? code : exit_status;  // as LeakSanitizer's check at exit ends the process
}

void arm_leak_check_at_exit() {
  static bool armed = false;
  if (armed || !__asan_get_shadow_mapping || !__lsan_do_recoverable_leak_check) return;
  armed = true;
  if (option_is_off(sanitizer_option("ASAN_OPTIONS", "halt_on_error")) &&
      !option_is_off(sanitizer_option("ASAN_OPTIONS", "leak_check_at_exit")) &&
      !option_is_off(sanitizer_option("LSAN_OPTIONS", "leak_check_at_exit")))
    std::atexit(&check_leaks_at_exit);
}

void leave_exit_leak_check_to_worker(bool worker_checks) { g_worker_checks_leaks = worker_checks; }

void exit_leak_check_left_to_worker() {
  if (g_worker_checks_leaks) check_leaks_and_end_if_leaked();
}

}  // namespace bspcheck::rt

// LeakSanitizer asks this hook (weak in the sanitizer's runtime, so that a program may define it)
// before every check. The sanitizer's own check at exit runs among the shared libraries'
// destructors (_dl_fini, before the fork server's last exit handler, runtime/isolation/
// fork_server.cpp): in a worker's run, which checks itself where a leak can be, it would check
// every run in full. Off there; every other check, the worker's own among them, goes on.
extern "C" __attribute__((visibility("default"))) int __lsan_is_turned_off() {
  return bspcheck::rt::g_worker_checks_leaks && !bspcheck::rt::g_checking;
}
