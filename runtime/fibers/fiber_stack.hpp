// fiber_stack.hpp: mmap-backed stacks for the coroutine processes.
//
// Each stack normally has a PROT_NONE guard page below it, so an overflow faults at once and the
// crash handler can say "stack overflow". A guard page splits the mapping in two, and the
// kernel's default limit of 65,530 mappings per process therefore allows about 32,000 guarded
// stacks. Above a budget derived from /proc/sys/vm/max_map_count the pool switches to unguarded
// stacks carved from large shared mappings, and one guard page below each mapping: a runaway
// recursion faults after crossing at most the stacks of its own mapping (the budget sets how
// many: 82 at 2,000,000 processes). Below each unguarded stack lies a canary that is checked
// whenever the process switches away (overflow then is reported, after the fact). It is the top
// kCanaryBytes of the slot below, in the page that the stack below keeps resident anyway: a
// canary at the stack's own low end had made a page per process resident for 8 bytes.
//
// In a worker of the fork server, which makes run after run, a small pool's chunks outlive the
// run: zeroed where touched and put on the snapshot's shelf (runtime/isolation/process_snapshot.hpp), so
// that the next run finds the pages its stacks touch resident instead of faulting them in again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bspcheck::rt {

struct FiberStack {
  void* base = nullptr;    // lowest usable address (just above the guard page, if any)
  std::size_t size = 0;    // usable bytes
  void* guard = nullptr;   // guard page, or nullptr for an unguarded stack
  void* canary = nullptr;  // kCanaryBytes just below base, for an unguarded stack above another
  static constexpr std::size_t kCanaryBytes = 64;
  void* top() const { return static_cast<char*>(base) + size; }
  bool canary_intact() const;  // (true without a canary)
  bool contains(const void* p) const {
    auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(base);
    return a >= b && a < b + size;
  }
  bool in_guard(const void* p) const;
  // How many bytes just below `from` (an address in the stack) hold anything: the distance down
  // to the lowest nonzero word, found by reading down until kQuietBytes of zeros in a row or the
  // stack's base. For bsp_begin on a fresh stack (zeros below the program's frames, the pool
  // zeroes what a run touched): what it left below its caller is exactly that.
  static constexpr std::size_t kQuietBytes = 2048;
  std::size_t written_below(std::uintptr_t from) const;
};

class StackPool {
 public:
  StackPool(std::size_t stack_size, std::size_t count);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // Stack number i (0 <= i < count). Stacks are carved lazily from chunks.
  FiberStack stack(std::size_t i);
  bool guarded() const { return guarded_; }
  std::size_t stack_size() const { return stack_size_; }

  static std::size_t page_size();
  // How many guarded stacks fit in the mapping budget of this machine.
  static std::size_t guarded_limit();

 private:
  std::size_t stack_size_;
  std::size_t count_;
  bool guarded_;
  std::size_t per_chunk_;
  std::vector<void*> chunks_;  // one mapping per chunk of per_chunk_ stacks
  std::size_t slot_bytes() const;
  std::size_t chunk_bytes(std::size_t n) const;
  std::size_t chunk_stacks(std::size_t c) const;
  void* map_chunk(std::size_t n);
  void give_back(void* chunk, std::size_t n);
  std::uint64_t shelf_key(std::size_t n) const;
};

}  // namespace bspcheck::rt
