// process_snapshot.hpp: brings this OS process back to a saved moment without fork, so that one
// forked child of the fork server can run many seeds in turn.
//
// Why: a fork per run costs 200-800 µs on the machines bsp-check runs on (the page tables copied,
// every page the run writes faulted and copied, the address space torn down at exit), ten times
// what a small program's run itself costs. Every run starts from the same moment (the server's
// bsp_begin), so a child can save that moment once and return to it after each run: the
// writable memory of every private mapping (the data of the executable and of every library, the
// heap, the main thread's stack from its current frame up, its TLS block), the program break, the
// set of mappings (those made since are removed), the open descriptors (those opened since are
// closed, file offsets set back), the signal mask, and the dispositions and signal stack the run
// changed. Restoring is a copy of a few hundred KiB for a small program, and the heap, the C
// library's state and every address come back exactly as they were, so a run in a reused child
// is the run a fresh child would have made (the determinism check compares such runs call for
// call).
//
// What cannot be brought back makes the child unusable for more runs, never a wrong run: a
// thread the run started, a saved mapping the run removed or changed that was not writable, a
// descriptor of the moment that the run closed. prepare_restore() says so, and the child exits
// instead (the server then forks a fresh one).
#pragma once

#include <cstddef>
#include <cstdint>

namespace bspcheck::rt {

class ProcessSnapshot {
 public:
  enum class Taken {
    unavailable,  // nothing saved (more than `limit` bytes, several threads, no memory): run once
    saved,        // saved now
    restored,     // restore() has brought the process back here
  };

  // Saves the moment of the call. Returns `saved`, and `restored` each time restore() comes back.
  static Taken take(std::size_t limit);

  // At the end of a run: whether restore() can bring the process back, and what it will undo.
  // Reads /proc/self/maps and the descriptor table; allocates nothing.
  static bool prepare_restore();

  // Undoes the run as prepare_restore() planned and continues in take(). Call it right after a
  // successful prepare_restore(), without allocating or opening anything in between.
  [[noreturn]] static void restore();

  // Bytes saved by the snapshot of this process (0 before take).
  static std::size_t saved_bytes();

  // Whether a restore copies back only the pages the runs wrote since the moment
  // (written_pages.hpp); false where less than 8 MB is saved or the kernel cannot tell them
  // (before Linux 6.7), and then it copies everything.
  static bool copies_back_only_written_pages();

  // A mapping of the moment whose bytes no run needs back (a signal stack): call before take().
  // It stays mapped through every restore and is neither saved nor copied back, which a mapping
  // the size of a signal stack would otherwise cost every run. It must be a mapping of its own
  // (guard pages around it keep the kernel from merging it with a neighbour); false when the
  // list of such mappings is full or take() has been called.
  static bool leave_unsaved(void* addr, std::size_t bytes);

  // The shelf: mappings a run hands on to the next run of the same worker instead of unmapping
  // them, kept resident. Why: here a page fault costs about 12 µs and an unmap of touched pages
  // 15-25 µs (a TLB shootdown), so a small run that maps its coroutine stacks afresh spent a third
  // of its time faulting in the few pages each stack touches. The owner gives the mapping back
  // as a fresh one would be (its pages zeroed, its protections as the owner wants them next time)
  // and labels it with `key` (its layout); a later run takes it by size and key.
  //
  // shelve(): true when kept, false when the caller must unmap it itself (no snapshot in this
  //   process, the shelf full, or the range not one a run made and may hand on).
  // unshelve(): a shelved mapping of exactly `bytes` with `key`, or nullptr. When there is none,
  //   every other shelved mapping is unmapped, so that the caller's own mmap lands where it lands
  //   in a fresh child. A mapping taken and not shelved again is unmapped at the run's end.
  static bool shelve(void* addr, std::size_t bytes, std::uint64_t key);
  // Makes whole pages [addr, addr + bytes) of an anonymous mapping read as a fresh mapping's would:
  // zeros, clearing only the pages that are resident (mincore; while pages of the machine are
  // swapped out mincore cannot tell, and the pages are given back to the kernel instead). How an
  // owner gives a mapping back before shelve(); the restore clears its zero pages the same way.
  static void clear_as_fresh(void* addr, std::size_t bytes);
  static bool shelving();  // whether shelve() may keep anything here (a snapshot was taken)
  static void* unshelve(std::size_t bytes, std::uint64_t key);
};

// Called by the interposed signal functions (runtime/isolation/snapshot_interposers.cpp): the run changed the
// disposition of `sig`, which restore() sets back.
void note_signal_disposition_changed(int sig);

// Called by the interposed sigaltstack: the run changed the thread's signal stack, which restore()
// sets back.
void note_signal_stack_changed();

// Called by the interposed pthread_create: the process is no longer single-threaded, and a
// snapshot can no longer be restored.
void note_thread_started();

// Called by the interposed mmap family: a range was mapped, unmapped or had its protection
// changed, which restore() undoes without reading /proc/self/maps when it knows all of them.
void note_mapped(const void* addr, std::size_t length);
void note_unmapped(const void* addr, std::size_t length);
void note_protection_changed(const void* addr, std::size_t length);

}  // namespace bspcheck::rt
