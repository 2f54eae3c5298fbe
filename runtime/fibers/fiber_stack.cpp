#include "runtime/fibers/fiber_stack.hpp"

#include "runtime/base/shelf.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>

// AddressSanitizer's interface (<sanitizer/asan_interface.h>), present in a program built with it.
extern "C" void __asan_unpoison_memory_region(const volatile void* addr, std::size_t size) __attribute__((weak));

namespace bspcheck::rt {

namespace {
constexpr std::uint64_t kCanary = 0xB5BC4EC4B5BC4EC4ULL;
constexpr std::size_t kStacksPerChunk = 256;
// A pool of at most this many chunks is shelved for a worker's next run (a small program's; a
// larger one's stacks would hold memory between runs for little gain, and fill the shelf).
constexpr std::size_t kShelvedChunks = 4;

}  // namespace

std::size_t StackPool::page_size() {
  static const std::size_t ps = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return ps;
}

std::size_t StackPool::guarded_limit() {
  // Read once per process: a fork server reads it before it forks (runtime/isolation/fork_server.cpp), so
  // that no run of its children or workers opens the file again.
  static const std::size_t limit = [] {
    std::size_t max_maps = 65530;
    std::ifstream f("/proc/sys/vm/max_map_count");
    if (f) f >> max_maps;
    // BSPCHECK_MAX_MAP_COUNT lowers it, never raises it: tests reach the unguarded stacks with a
    // few thousand processes where the system allows a million mappings (recent distributions).
    if (const char* lower = std::getenv("BSPCHECK_MAX_MAP_COUNT"))
      if (const std::size_t n = std::strtoull(lower, nullptr, 10); n > 0) max_maps = std::min(max_maps, n);
    // Two mappings per guarded stack; keep a quarter of the budget for the program itself.
    return std::max<std::size_t>(1, max_maps * 3 / 4 / 2);
  }();
  return limit;
}

bool FiberStack::canary_intact() const {
  if (!canary) return true;
  std::uint64_t words[kCanaryBytes / 8];
  std::memcpy(words, canary, sizeof words);
  std::uint64_t differ = 0;
  for (std::uint64_t w : words) differ |= w ^ kCanary;
  return differ == 0;
}

// Reads below the stack pointer, raw: ASan's shadow of the frames that were there says nothing
// about these bytes now.
__attribute__((no_sanitize("address", "thread", "undefined"))) std::size_t FiberStack::written_below(
    std::uintptr_t from) const {
  const auto lo = reinterpret_cast<std::uintptr_t>(base);
  if (from <= lo || from > lo + size) return 0;
  std::uintptr_t at = from & ~std::uintptr_t{7}, lowest = from, quiet = 0;
  while (at - lo >= 8 && quiet < kQuietBytes) {
    at -= 8;
    if (*reinterpret_cast<const volatile std::uint64_t*>(at) != 0) lowest = at, quiet = 0;
    else quiet += 8;
  }
  return from - lowest;
}

bool FiberStack::in_guard(const void* p) const {
  if (!guard) return false;
  auto a = reinterpret_cast<std::uintptr_t>(p), g = reinterpret_cast<std::uintptr_t>(guard);
  return a >= g && a < g + StackPool::page_size();
}

StackPool::StackPool(std::size_t stack_size, std::size_t count) : count_(count) {
  const std::size_t ps = page_size();
  stack_size_ = (stack_size + ps - 1) / ps * ps;
  if (stack_size_ < 4 * ps) stack_size_ = 4 * ps;
  guarded_ = count <= guarded_limit();
  // Unguarded stacks come in chunks with one guard page below each, as many chunks as the
  // mapping budget allows: a deep recursion runs through at most the stacks below it in its chunk
  // (then faults, and the crash handler names the overflow) instead of through every stack of
  // the run, touching gigabytes first.
  per_chunk_ = guarded_ ? kStacksPerChunk : std::max<std::size_t>(1, (count + guarded_limit() - 1) / guarded_limit());
  chunks_.assign((count + per_chunk_ - 1) / per_chunk_, nullptr);
}

StackPool::~StackPool() {
  for (std::size_t c = 0; c < chunks_.size(); ++c)
    if (chunks_[c]) give_back(chunks_[c], chunk_stacks(c));
}

std::size_t StackPool::slot_bytes() const { return stack_size_ + (guarded_ ? page_size() : 0); }

// A chunk of n stacks: their slots, and for unguarded stacks one guard page below them all.
std::size_t StackPool::chunk_bytes(std::size_t n) const { return n * slot_bytes() + (guarded_ ? 0 : page_size()); }

std::size_t StackPool::chunk_stacks(std::size_t c) const { return std::min(per_chunk_, count_ - c * per_chunk_); }

// What a shelved chunk must match to be handed on: its size alone could hide another layout.
std::uint64_t StackPool::shelf_key(std::size_t n) const {
  return (stack_size_ / page_size()) | (std::uint64_t{n} << 32) | (std::uint64_t{guarded_} << 63);
}

// A chunk of n stacks with its guard pages in place: from the shelf, or mapped now.
void* StackPool::map_chunk(std::size_t n) {
  const std::size_t bytes = chunk_bytes(n);
  const ShelfKeeper* shelf = shelf_keeper();
  if (shelf && chunks_.size() <= kShelvedChunks)
    if (void* m = shelf->unshelve(bytes, shelf_key(n))) return m;
  // MAP_NORESERVE: only the pages a process touches cost memory, so p = 100,000 processes
  // with 256 KiB stacks reserve address space, not RAM.
  void* m =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  // Small pages only: a transparent huge page would make 2 MiB resident for the few KiB that a
  // process's stack touches.
  madvise(m, bytes, MADV_NOHUGEPAGE);
  // Every guard page at once: a pool's stacks are all asked for, and a shelved chunk then
  // comes back complete.
  if (guarded_) {
    for (std::size_t i = 0; i < n; ++i)
      if (mprotect(static_cast<char*>(m) + i * slot_bytes(), page_size(), PROT_NONE) != 0) {
        munmap(m, bytes);
        throw std::bad_alloc();
      }
  } else if (mprotect(m, page_size(), PROT_NONE) != 0) {
    munmap(m, bytes);
    throw std::bad_alloc();
  }
  return m;
}

// The end of a chunk: shelved for the worker's next run when the pool is small, unmapped otherwise.
void StackPool::give_back(void* chunk, std::size_t n) {
  const std::size_t bytes = chunk_bytes(n);
  const ShelfKeeper* shelf = shelf_keeper();
  if (shelf && chunks_.size() <= kShelvedChunks && shelf->shelving()) {
    shelf->clear_as_fresh(chunk, bytes);
    if (shelf->shelve(chunk, bytes, shelf_key(n))) return;
  }
  // In a worker (runtime/isolation/process_snapshot.hpp) the next run may map its stacks here
  // again: AddressSanitizer's marks of this run's frames must not be in their shadow then. (The
  // snapshot clears the shadow of what a run mapped where it sees the mapping; a runtime built
  // with the sanitizer maps through the sanitizer, unseen.)
  if (shelf && shelf->shelving() && __asan_unpoison_memory_region) __asan_unpoison_memory_region(chunk, bytes);
  munmap(chunk, bytes);
}

FiberStack StackPool::stack(std::size_t i) {
  const std::size_t c = i / per_chunk_;
  if (!chunks_[c]) chunks_[c] = map_chunk(chunk_stacks(c));
  char* slot = static_cast<char*>(chunks_[c]) + (guarded_ ? 0 : page_size()) + (i % per_chunk_) * slot_bytes();
  FiberStack s;
  if (guarded_) {
    s.guard = slot;
    slot += page_size();
  }
  s.base = slot;
  s.size = stack_size_;
  if (!guarded_) {
    // The top kCanaryBytes of every unguarded slot are the canary of the stack above it, in the
    // page where the stack below starts (resident as soon as its process runs). The lowest stack
    // of a chunk has the chunk's guard page below instead.
    s.size -= FiberStack::kCanaryBytes;
    if (i % per_chunk_ != 0) {
      s.canary = slot - FiberStack::kCanaryBytes;
      for (std::size_t w = 0; w < FiberStack::kCanaryBytes / 8; ++w)
        std::memcpy(static_cast<char*>(s.canary) + 8 * w, &kCanary, sizeof kCanary);
    }
  }
  return s;
}

}  // namespace bspcheck::rt
