#include "runtime/fiber_stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

namespace bspcheck::rt {

namespace {
constexpr std::uint64_t kCanary = 0xB5BC4EC4B5BC4EC4ULL;
constexpr std::size_t kStacksPerChunk = 256;
}  // namespace

std::size_t StackPool::page_size() {
  static const std::size_t ps = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return ps;
}

std::size_t StackPool::guarded_limit() {
  std::size_t max_maps = 65530;
  std::ifstream f("/proc/sys/vm/max_map_count");
  if (f) f >> max_maps;
  // Two mappings per guarded stack; keep a quarter of the budget for the program itself.
  return max_maps * 3 / 4 / 2;
}

bool FiberStack::canary_intact() const {
  if (!canary) return true;
  std::uint64_t words[kCanaryBytes / 8];
  std::memcpy(words, canary, sizeof words);
  std::uint64_t differ = 0;
  for (std::uint64_t w : words) differ |= w ^ kCanary;
  return differ == 0;
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
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    if (!chunks_[c]) continue;
    std::size_t n = std::min(per_chunk_, count_ - c * per_chunk_);
    munmap(chunks_[c], chunk_bytes(n));
  }
}

std::size_t StackPool::slot_bytes() const { return stack_size_ + (guarded_ ? page_size() : 0); }

// A chunk of n stacks: their slots, and for unguarded stacks one guard page below them all.
std::size_t StackPool::chunk_bytes(std::size_t n) const { return n * slot_bytes() + (guarded_ ? 0 : page_size()); }

FiberStack StackPool::stack(std::size_t i) {
  const std::size_t c = i / per_chunk_;
  if (!chunks_[c]) {
    std::size_t n = std::min(per_chunk_, count_ - c * per_chunk_);
    // MAP_NORESERVE: only the pages a process touches cost memory, so p = 100,000 processes
    // with 256 KiB stacks reserve address space, not RAM.
    void* m = mmap(nullptr, chunk_bytes(n), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    // Small pages only: a transparent huge page would make 2 MiB resident for the few KiB that a
    // process's stack touches.
    madvise(m, chunk_bytes(n), MADV_NOHUGEPAGE);
    if (!guarded_ && mprotect(m, page_size(), PROT_NONE) != 0) throw std::bad_alloc();
    chunks_[c] = m;
  }
  char* slot = static_cast<char*>(chunks_[c]) + (guarded_ ? 0 : page_size()) + (i % per_chunk_) * slot_bytes();
  FiberStack s;
  if (guarded_) {
    if (mprotect(slot, page_size(), PROT_NONE) != 0) throw std::bad_alloc();
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
