// huge_page_allocator.hpp: an allocator whose large blocks ask for transparent huge pages, and
// PerProcess<T>, the array of one T per process that it serves.
//
// At a large p every switch reads what the runtime keeps per process (its record, its virtual
// clock, its place in the runnable list) at the index of a process chosen at random, and on a
// virtual machine a read of a page that is not in the TLB walks two levels of page tables: about
// 450 ns here (bench/bench_page_touch.cpp). On 2 MiB pages the records of 10^6 processes (384 MB)
// are 192 TLB entries instead of 94,000. Blocks from kHugeFrom on are mapped on their own, aligned
// to 2 MiB and advised MADV_HUGEPAGE (with the kernel's setting "madvise", the default here; with
// "never" they are ordinary pages); smaller ones come from operator new.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bspcheck::rt {

namespace huge_pages {
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;
inline constexpr std::size_t kHugeFrom = kHugePage;  // below this a few small pages hold a block

inline std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

// A 2 MiB-aligned anonymous mapping of rounded(bytes), advised to use huge pages.
inline void* map(std::size_t bytes) {
  const std::size_t size = rounded(bytes);
  void* m = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const auto lo = reinterpret_cast<std::uintptr_t>(m);
  const std::uintptr_t aligned = (lo + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > lo) munmap(m, aligned - lo);  // the unaligned head and tail are given back
  if (const std::size_t tail = lo + size + kHugePage - (aligned + size))
    munmap(reinterpret_cast<void*>(aligned + size), tail);
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}
inline void unmap(void* p, std::size_t bytes) { munmap(p, rounded(bytes)); }
}  // namespace huge_pages

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_pages::kHugeFrom) return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    return static_cast<T*>(huge_pages::map(bytes));
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_pages::kHugeFrom) ::operator delete (p, std::align_val_t{alignof(T)});
    else huge_pages::unmap(p, bytes);
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

// One T per process, indexed by pid, read at random at a large p.
template <typename T>
using PerProcess = std::vector<T, HugePageAllocator<T>>;

}  // namespace bspcheck::rt
