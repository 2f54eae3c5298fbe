// written_pages.hpp: which pages of the saved memory any run wrote since the moment, so that a
// restore copies back those and no others (process_snapshot.hpp).
//
// Why: a restore copied every saved page back but the zero spans, whose pages a run made resident
// it found with mincore and read. A program built with AddressSanitizer saves about 27 MB (the
// sanitizer's allocator and shadow, 3 MB of it not zeros), of which its runs write a few hundred
// pages: the copy and mincore were a third of a worker's time.
//
// How: the saved ranges are registered with a userfaultfd in asynchronous write-protect mode
// (Linux 6.7: UFFD_FEATURE_WP_ASYNC, with UFFD_FEATURE_WP_UNPOPULATED so that a page that was not
// there yet is protected too) and protected once, at the save. The kernel clears a page's bit at
// its first write, by the program or by the kernel on its behalf (read(2) into a buffer), without
// waking anyone; a page given back (MADV_DONTNEED) reads as written too. The pagemap's
// PAGEMAP_SCAN lists the pages whose bit is clear. They are not protected again after a restore:
// each page would then fault at every run's first write to it, which in a virtual machine costs
// as much as copying it back (measured: no gain at all, docs/performance.md). So a restore copies
// every page some run wrote since the moment, a set that stops growing once the runs have touched
// what they touch; at worst it is what the copy of everything was. (Soft-dirty bits, which CRIU
// used for the same, are not kept by every kernel: none on the Firecracker kernels we run on.)
//
// The userfaultfd is opened in user-mode-only mode, which an unprivileged process may open when
// vm.unprivileged_userfaultfd is 0; asynchronous protection never waits on the descriptor, so it
// is never read. Where any step is refused (an older kernel, a seccomp filter), the restore copies
// everything, as before.
//
// Everything here but open_write_tracking() runs in the snapshot's helper context: system calls
// made directly, nothing from the C library.
#pragma once

#include <cstdint>

#include "runtime/isolation/snapshot_vault.hpp"

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

// Opens the userfaultfd and /proc/self/pagemap into v.track_fd and v.pagemap_fd (above the
// program's descriptors, kept open for the runtime) where v.saved is kTrackWritesFrom or more, or
// leaves both -1 (less is saved, or the kernel cannot track writes). Called before the descriptors
// are saved, so that no restore closes them.
void open_write_tracking(Vault& v);
void close_write_tracking(Vault& v);  // a snapshot given up before it was taken

// Registers [lo, hi) for write tracking; false when refused. The range's pages count as written
// until they are protected.
bool track_writes(Vault& v, std::uintptr_t lo, std::uintptr_t hi);

// Protects the pages of [lo, hi), registered: from now on, a write shows. False when refused.
bool protect_pages(Vault& v, std::uintptr_t lo, std::uintptr_t hi);

// The spans a restore scans: from the lowest saved region's start to the highest one's end, less
// the vault and the store (unregistered, and the scan would read their page tables entry by
// entry). Sets v.track_spans; the saved regions must be in v.by_address.
void plan_track_spans(Vault& v);

// protect_pages() of every registered range in v.track_spans, at the save.
bool protect_saved_pages(Vault& v);

// Lists into v.written, in address order and as many as it holds, the registered pages of [from,
// to), as runs of pages that were all written or all not (written_run() tells which). A page of a
// saved region that no run covers is not registered: its mapping was made anew since (a run
// replaced it, or unmapped it and the restore mapped it again), and whatever it holds is unknown.
// Returns how many runs (fewer than kMaxWrittenRuns: all are listed), and sets `next` to where
// the next call goes on from; -1 when the kernel refused, and then nothing is known.
long list_written(Vault& v, std::uintptr_t from, std::uintptr_t to, std::uintptr_t& next);
bool written_run(const WrittenRun& run);

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
