// snapshot_vault.hpp: the vault, where a process snapshot (process_snapshot.hpp) keeps what it
// saved and what it knows of the run since, in a mapping of its own that no restore touches.
//
// Why a mapping of its own, of a fixed size: the snapshot's own state must survive the copy of
// the process's memory back to the moment, and must not move the heap of the run it watches (no
// allocation). The internal header of the snapshot's files (proc_self, snapshot_plan,
// snapshot_helper, snapshot_descriptors, process_snapshot.cpp); nothing else includes it.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <cstdint>

#include "runtime/isolation/proc_self.hpp"
#include "runtime/isolation/sanitizer_shadow.hpp"

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

namespace fctx = boost::context::detail;

constexpr int kMaxMappings = 8192;
constexpr int kMaxFds = 1024;
constexpr std::size_t kMapsText = 2u << 20;
constexpr std::size_t kHelperStack = 128u << 10;
constexpr std::uintptr_t kPage = 4096;
constexpr int kMaxCreated = 1024;
constexpr int kShelfSize = 16;
constexpr int kMaxZeroSpans = 4096;  // AddressSanitizer's allocator has two spans per size class
constexpr int kMaxShadowClears = 1024;
constexpr int kMaxReserves = 256;
constexpr std::size_t kMincoreWindow = 4096;        // pages per mincore call
constexpr int kMaxWrittenRuns = 1024;               // runs of written pages per scan (written_pages.hpp)
constexpr std::size_t kTrackWritesFrom = 8u << 20;  // saved bytes from which writes are tracked

struct Region {  // saved bytes [lo, hi), kept at store + at
  std::uintptr_t lo, hi;
  std::size_t at;
  std::uint8_t perms;
  bool recreate;             // the run removed or replaced its mapping: map it anew before the copy
  bool anonymous;            // no file behind it: a page given back to the kernel reads as zeros
  int zero_first, zero_end;  // its zero spans: Vault::zero[zero_first, zero_end)
};

struct Piece {
  std::uintptr_t lo, hi;
};

// A mapping on the shelf (ProcessSnapshot::shelve): kept across restores for the next run.
struct Shelved {
  std::uintptr_t lo, hi;
  std::uint64_t key;
  bool taken;    // handed to the current run, which must shelve it again or lose it
  bool spoiled;  // its protection was changed: neither shelved again nor handed out
};

struct SavedFd {
  int fd;
  off_t offset;  // -1: not a regular file
  dev_t dev;
  ino_t ino;
};

struct WrittenRun {  // the kernel's struct page_region: pages [lo, hi) written (written_pages.hpp)
  std::uint64_t lo, hi, categories;
};

struct Vault {
  fctx::fcontext_t main;  // the suspended moment of take(), on the main stack
  std::uintptr_t lo, hi;  // this vault's own mapping, guard pages included
  std::uintptr_t store_lo, store_hi;
  std::uintptr_t brk;
  std::size_t saved;
  sigset_t mask;
  struct sigaction dispositions[65];
  std::uint64_t touched_signals;  // bit s: the run changed signal s's disposition
  stack_t signal_stack;           // sigaltstack's at the moment
  bool signal_stack_touched;      // the run called sigaltstack
  // The mappings a run made through the interposed mmap family (runtime/isolation/snapshot_interposers.cpp),
  // so that the end of a run need not read /proc/self/maps (a third of a small run's time): the
  // process's size then tells whether anything else mapped or unmapped.
  std::uint64_t vm_pages;  // /proc/self/statm's size at the moment
  int statm_fd;            // /proc/self/statm, kept open for plan_unmapping's reading of it (or -1)
  std::uintptr_t heap_lo;  // the start of the heap, whose size the break sets
  int loaded_objects;      // dl_iterate_phdr's count at the moment
  bool untracked;          // a saved mapping was changed, or too many were made, since the moment
  int ncreated;
  Piece created[kMaxCreated];
  int nshelved;
  Shelved shelf[kShelfSize];
  int nmappings, nregions, nfds, nunmap, nclose, nkeep;
  Mapping mappings[kMaxMappings];
  Piece keep[kMaxMappings + 2];  // sorted, disjoint: the saved mappings, the vault, the store
  // [0, nregions): the saved mappings, in address order; [nregions, nall): under AddressSanitizer,
  // the shadow of those (runtime/isolation/sanitizer_shadow.hpp), merged where pages are shared.
  int nall;
  Region regions[2 * kMaxMappings];
  // AddressSanitizer: its layout (present false without it); the shadow a restore clears (of the
  // ranges given, in the program's addresses: what the run mapped); the ranges the run mapped
  // through the interposed mmap family, unmapped since or not (merged when the list is full);
  // the reservations (mappings without access, the allocator's) that the run made accessible in
  // part, mapped anew as they were.
  ShadowLayout shadow;
  int nshadow_clears, nmapped, nreserves;
  Piece shadow_clears[kMaxShadowClears];
  Piece mapped[kMaxCreated];
  Mapping reserves[kMaxReserves];
  Piece unmap[kMaxMappings];
  // Pages of anonymous saved mappings that held only zeros at the moment, in runs of two or more
  // (about half of a small program's saved memory: the heap's free top, zeroed .bss). They are
  // given back to the kernel when the moment is saved and not copied back at a restore: only the
  // pages a run made resident (mincore) are cleared. A page that was swapped out is not resident
  // either, though it may hold a run's writes: while any swap is in use every page is copied back.
  int nzero;
  Piece zero[kMaxZeroSpans];
  unsigned char resident[kMincoreWindow];
  // Which saved pages the runs wrote since the moment (written_pages.hpp): the userfaultfd and the
  // pagemap (-1: the kernel cannot tell); whether every saved region is registered, so that a
  // restore copies back only the pages written (else all); the spans holding them; the last scan's
  // answer; the regions' order by address ([0, nregions) and the shadow's are each in order, not
  // together).
  int track_fd, pagemap_fd;
  bool tracking;
  int ntrack_spans;
  Piece track_spans[3];
  WrittenRun written[kMaxWrittenRuns];
  int by_address[2 * kMaxMappings];
  // The main stack is saved whole, from its mapping's low end at the moment (stack_saved_lo) up:
  // what a run leaves below the frame of the moment would otherwise be there in the next run's
  // uninitialised locals of process 0. A run that goes deeper grows the mapping down to stack_lo,
  // which no restore undoes: those pages are cleared (they were fresh zeros in the first run),
  // and counted in the process's size from then on.
  std::uintptr_t stack_saved_lo, stack_lo;
  std::size_t stack_reach;  // how far below stack_saved_lo it may grow (RLIMIT_STACK)
  SavedFd fds[kMaxFds];     // ascending
  // Descriptors a run opened are closed by closing every gap between those of the moment
  // (close_range, Linux 5.9), which needs no listing of /proc/self/fd (20 us here); without
  // close_range the end of a run lists them and closes each.
  bool close_gaps;
  int close_fds[kMaxFds];
  Mapping now[kMaxMappings];  // the mappings at the end of a run
  char maps_text[kMapsText];
  alignas(64) char helper_stack[kHelperStack];
};

extern Vault* g_vault;         // the snapshot of this process, or nullptr before take()
extern int g_threads_started;  // since the snapshot; part of the saved memory, so 0 after each restore

inline bool overlaps(std::uintptr_t lo, std::uintptr_t hi, std::uintptr_t a, std::uintptr_t b) {
  return lo < b && a < hi;
}

inline std::uintptr_t page_up(std::uintptr_t a) { return (a + kPage - 1) & ~(kPage - 1); }

// Maps `bytes` with a PROT_NONE page at each end, far from where the kernel places mappings
// (the vault, the store); nullptr when it cannot.
char* map_apart(std::size_t bytes);

// A new vault, in a mapping of its own (lo, hi set, the rest unset), or nullptr.
Vault* map_vault();
void unmap_vault(Vault* v);

// Removes [lo, hi) from the n pieces of list, in place, and updates n; emptied pieces are dropped
// and a piece split in two puts its upper part at the end. False when a split would pass cap:
// that upper part is then lost.
bool subtract_range(Piece* list, int& n, int cap, std::uintptr_t lo, std::uintptr_t hi);

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
