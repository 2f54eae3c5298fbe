// heap_owners.hpp: which process allocated a heap block. Separate processes each have a heap of
// their own; here they share one, so an address in the heap says nothing of whose it is. cBSP's
// send names its destination by an address in the receiver's memory (the paper's "remote
// virtual address"), which the receiver may have allocated and told the sender; to accept that
// destination and to refuse a sender's own block, the runtime records, while a program that uses
// cBSP runs, which process allocated each live block of malloc, calloc and realloc (the C
// library's allocator does the work: these are forwarded to it). Under AddressSanitizer, whose
// allocator comes first, its allocation hooks record instead. Aligned allocations
// (posix_memalign, aligned_alloc, C++'s over-aligned new) are not recorded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bspcheck::rt {

struct HeapBlock {
  std::uintptr_t lo = 0;
  std::size_t size = 0;  // as asked for
  int owner = -1;        // the process that allocated it
};

// Records from now on (idempotent). Switched on at load when the executable imports cBSP_send,
// and by cBSP_initialize. `owner` answers who allocates: the running process, or -1 for memory
// allocated outside the processes (main before bsp_begin, other threads), which is not recorded.
void track_heap_owners(int (*owner)());

// The recorded live block that holds addr; false when none does (not recorded, or not heap).
bool heap_block_of(const void* addr, HeapBlock& out);

}  // namespace bspcheck::rt
