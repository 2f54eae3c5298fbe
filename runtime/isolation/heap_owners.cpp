#include "runtime/isolation/heap_owners.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

// The C library's allocator under its own names: the interposers below forward to it, and the
// table of owners lives in it without being recorded itself.
extern "C" {
void* __libc_malloc(std::size_t n);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t n);
void __libc_free(void* p);
// AddressSanitizer's hooks (present only in sanitizer builds).
__attribute__((weak)) int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, std::size_t),
                                                                    void (*)(const volatile void*));
}

namespace bspcheck::rt {

namespace {

// Live blocks by their first byte: open addressing with linear probing, deletion by shifting
// back (no tombstones), at most half full. A few machine words per block of a cBSP program.
struct Entry {
  std::uintptr_t lo;  // 0: empty
  std::size_t size;
  int owner;
};
Entry* g_table = nullptr;
std::size_t g_capacity = 0;  // a power of two
unsigned g_shift = 64;       // 64 - log2(g_capacity)
std::size_t g_count = 0;
std::atomic_flag g_lock = ATOMIC_FLAG_INIT;  // the program's own threads allocate too
// Set once, read by every allocation, from any thread.
std::atomic<bool> g_tracking{false};
int (*g_owner)() = nullptr;

struct Locked {
  Locked() {
    while (g_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~Locked() { g_lock.clear(std::memory_order_release); }
};

// Fibonacci hashing: the product's top bits, which every bit of the address reaches (a simulation
// of blocks laid out as malloc lays them gave 1.0-1.1 probes per lookup, against 1.2-1.3 for
// bits 20 and up of the product).
std::size_t slot_of(std::uintptr_t lo) { return (lo >> 4) * 0x9E3779B97F4A7C15ull >> g_shift; }

void place(const Entry& e) {
  std::size_t i = slot_of(e.lo);
  while (g_table[i].lo != 0 && g_table[i].lo != e.lo) i = (i + 1) & (g_capacity - 1);
  if (g_table[i].lo == 0) ++g_count;
  g_table[i] = e;
}

const Entry* find(std::uintptr_t lo) {
  for (std::size_t i = slot_of(lo);; i = (i + 1) & (g_capacity - 1)) {
    if (g_table[i].lo == lo) return &g_table[i];
    if (g_table[i].lo == 0) return nullptr;
  }
}

bool grow() {
  const std::size_t capacity = g_capacity ? 2 * g_capacity : 1024;
  auto* table = static_cast<Entry*>(__libc_calloc(capacity, sizeof(Entry)));
  if (!table) return false;
  Entry* old = g_table;
  const std::size_t old_capacity = g_capacity;
  g_table = table;
  g_capacity = capacity;
  g_shift = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
  g_count = 0;
  for (std::size_t i = 0; i < old_capacity; ++i)
    if (old[i].lo) place(old[i]);
  __libc_free(old);
  return true;
}

void record(const volatile void* p, std::size_t n) {
  const int owner = g_owner ? g_owner() : -1;
  if (owner < 0 || !p) return;  // outside the processes: nobody's in particular
  const int saved_errno = errno;
  {
    Locked lock;
    // Without memory for the record, the block stays unrecorded (known as nobody's).
    if (2 * (g_count + 1) <= g_capacity || grow()) place({reinterpret_cast<std::uintptr_t>(p), n, owner});
  }
  errno = saved_errno;
}

void forget(const volatile void* p) {
  if (!p) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  Locked lock;
  if (g_count == 0) return;
  std::size_t i = slot_of(lo);
  while (g_table[i].lo != lo) {
    if (g_table[i].lo == 0) return;  // never recorded
    i = (i + 1) & (g_capacity - 1);
  }
  // Shift back the entries after it that would no longer be found past the hole.
  for (std::size_t hole = i, j = (i + 1) & (g_capacity - 1);; j = (j + 1) & (g_capacity - 1)) {
    if (g_table[j].lo == 0) {
      g_table[hole].lo = 0;
      break;
    }
    const std::size_t home = slot_of(g_table[j].lo);
    // Entry j may fill the hole if its home is not cyclically within (hole, j].
    if (((j - home) & (g_capacity - 1)) >= ((j - hole) & (g_capacity - 1))) {
      g_table[hole] = g_table[j];
      hole = j;
    }
  }
  --g_count;
}

bool tracking() { return g_tracking.load(std::memory_order_relaxed); }

void on_sanitizer_malloc(const volatile void* p, std::size_t n) {
  if (tracking()) record(p, n);
}
void on_sanitizer_free(const volatile void* p) {
  if (tracking()) forget(p);
}

}  // namespace

void track_heap_owners(int (*owner)()) {
  if (tracking()) return;
  g_owner = owner;
  if (__sanitizer_install_malloc_and_free_hooks)
    __sanitizer_install_malloc_and_free_hooks(&on_sanitizer_malloc, &on_sanitizer_free);
  g_tracking.store(true, std::memory_order_relaxed);
}

bool heap_block_of(const void* addr, HeapBlock& out) {
  if (!tracking()) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  Locked lock;
  if (g_count == 0) return false;
  // The nearest recorded start at or below a is the only block that can hold it (blocks do not
  // overlap; one that is not recorded holds nothing known). The allocator's blocks start on
  // 16-byte boundaries: the starts just below a are looked up one by one, and a table scan
  // finds one deeper inside a large block.
  const Entry* best = nullptr;
  constexpr std::uintptr_t kProbes = 1024;
  for (std::uintptr_t lo = a & ~std::uintptr_t{15}, k = 0; k < kProbes && lo != 0 && !best; ++k, lo -= 16)
    best = find(lo);
  if (!best)
    for (std::size_t i = 0; i < g_capacity; ++i) {
      const Entry& e = g_table[i];
      if (e.lo != 0 && e.lo <= a && (!best || e.lo > best->lo)) best = &e;
    }
  if (!best || a >= best->lo + (best->size ? best->size : 1)) return false;
  out = {best->lo, best->size, best->owner};
  return true;
}

}  // namespace bspcheck::rt

// The allocator's entry points, forwarded to the C library's (which supports replacing them).
using bspcheck::rt::forget;
using bspcheck::rt::record;
using bspcheck::rt::tracking;

extern "C" {

// Untracked, each is a jump to the C library's entry point after one test.
void* malloc(std::size_t n) {
  if (!__builtin_expect(tracking(), false)) return __libc_malloc(n);
  void* p = __libc_malloc(n);
  record(p, n);
  return p;
}

void* calloc(std::size_t n, std::size_t size) {
  if (!__builtin_expect(tracking(), false)) return __libc_calloc(n, size);
  void* p = __libc_calloc(n, size);
  record(p, n * size);  // n * size did not overflow: p exists
  return p;
}

void* realloc(void* old, std::size_t n) {
  if (!__builtin_expect(tracking(), false)) return __libc_realloc(old, n);
  void* p = __libc_realloc(old, n);
  // Moved, grown or shrunk in place, or freed (a size of 0): the old record goes. On failure
  // (null for a size above 0) the old block stays as it was.
  if (old && (p || n == 0)) forget(old);
  record(p, n);
  return p;
}

void* reallocarray(void* old, std::size_t n, std::size_t size) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(old, bytes);
}

void free(void* p) {
  if (__builtin_expect(tracking(), false)) forget(p);
  __libc_free(p);
}

}  // extern "C"
