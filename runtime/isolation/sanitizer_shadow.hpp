// sanitizer_shadow.hpp: what a process snapshot (process_snapshot.hpp) must know of
// AddressSanitizer to bring a worker back to bsp_begin, and the leak check of a worker's run.
//
// Why: a program built with -fsanitize=address keeps state beside its own memory: the shadow (a
// byte per 8 bytes of the program's, in a reservation of 15 TiB that no snapshot can copy), and
// the sanitizer's allocator, whose user memory grows inside reservations of its own. The snapshot
// saves the shadow of the memory it saves (an eighth of it), clears the shadow of whatever a run
// mapped, and sets the allocator's reservations back; the rest of the sanitizer's state is
// ordinary process memory, saved and copied back like the program's. LeakSanitizer checks a
// process at its exit; a worker does not exit after a run, so it checks each run itself.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

// AddressSanitizer's shadow mapping in this process; `present` false in a program built without it.
struct ShadowLayout {
  bool present;
  std::uintptr_t offset;  // shadow(a) = (a >> scale) + offset
  unsigned scale;
  std::uintptr_t lo, hi;  // the shadow's own range (low shadow, gap, high shadow), page-aligned

  std::uintptr_t shadow_of(std::uintptr_t a) const { return (a >> scale) + offset; }
  bool holds(std::uintptr_t a, std::uintptr_t b) const { return present && a < hi && lo < b; }
};

// Asked of the sanitizer's runtime; the same all through a process's life.
ShadowLayout shadow_layout();

// Blocks allocated from now on are counted while they are alive (through the sanitizer's
// allocation hooks; only in a program with LeakSanitizer). Called at the moment a worker saves,
// so that each of its runs starts counting from none.
void start_counting_blocks();

// Whether a block allocated since start_counting_blocks() is still alive (true when not counting).
// A run can leak only such a block, or one alive at the moment whose every pointer it overwrote.
bool blocks_alive_since_start();

// A worker's run has ended (its exit handlers have run, as LeakSanitizer's own check at exit would
// see it): checks it for leaks, which LeakSanitizer prints on the run's stderr. Returns the exit
// status the run ends with: LeakSanitizer's when it found a leak (by default 1 under
// AddressSanitizer, 23 under LeakSanitizer alone, whatever the run's was, as at a real exit), else
// `exit_status` (no leak, leak detection off, or a program built without it); *leaked says which.
int exit_status_after_leak_check(int exit_status, bool* leaked);

// Under halt_on_error=0 (the driver's ASAN_OPTIONS, runtime/memory_checks/asan_recovery.hpp: a
// get-dst-early-read lets the program go on) AddressSanitizer checks for leaks at exit with its
// recoverable check, which prints them and leaves the exit status alone: a leaking run would pass.
// Armed at the first bsp_begin (after every constructor, so after the sanitizer registered its
// own check: exit handlers run last registered first), the runtime checks at exit before the
// sanitizer does and ends the process with LeakSanitizer's status when it leaked, as the check
// ends it under halt_on_error=1. Where nothing leaked the sanitizer's check still runs after it.
// Nothing where halt_on_error is not 0, leak_check_at_exit is off, or without the sanitizer.
void arm_leak_check_at_exit();

// A worker that comes back to bsp_begin after each run checks each run itself, and only where a
// leak can be (fork_server.cpp, check_leaks). Two checks run at a run's exit before the worker's
// own (exit handlers run last registered first): the one armed above, and the sanitizer's, among
// the shared libraries' destructors. Both would check every run in full, about 2.5 ms each, and
// both are off in a worker's runs: the first by this flag, the second through LeakSanitizer's
// `__lsan_is_turned_off` hook, which the runtime defines (sanitizer_shadow.cpp). Set by the
// worker once it knows it comes back; in its saved memory, so every run finds it set.
void leave_exit_leak_check_to_worker(bool worker_checks);
// The check the exit handler left to the worker, made by a worker's run that ends for real after
// all (it wrote files, or cannot be restored): a leak ends it with LeakSanitizer's status.
void exit_leak_check_left_to_worker();

}  // namespace bspcheck::rt
