// watchpoints.hpp: hardware data watchpoints on the few bytes AddressSanitizer cannot poison.
//
// ASan's shadow memory has 8-byte granules, and a granule can be poisoned only from some byte to
// its end. The last bytes of a forbidden region that share their granule with live bytes after
// them (the first element of `int a[3]` when the second is not a destination) stay readable to
// it, so an early read of them went unseen. The CPU's debug registers watch 1, 2, 4 or 8 aligned
// bytes each, and Linux hands them to a thread through perf_event_open, with a synchronous
// SIGTRAP right after the access (`sigtrap`, Linux 5.13). asan_poisoning.cpp watches those edges
// with them: at most 7 bytes, 1 to 3 registers each, as many at once as the four registers hold
// (first come, first served; an edge beyond them stays unwatched, as before).
//
// x86 watches reads and writes together; a write is told from a read by the bytes having changed
// since the watch was set or resumed. Only the program's own accesses count: a trap whose first
// frame outside the C and C++ support libraries is in bsp-check's own library (its copies of
// private globals, its hashes) is ignored.
#pragma once

#include <cstdint>

namespace bspcheck::rt {

class Watchpoints {
 public:
  // Watches [lo, hi), which lies within one 8-byte granule; enabled or not yet. The watch's id,
  // or -1: no debug register free, or watchpoints do not work here (available()).
  static int watch(std::uintptr_t lo, std::uintptr_t hi, bool enabled);
  static void set_enabled(int id, bool enabled);  // resuming takes a fresh copy of the bytes
  static void remove(int id);
  // Suspends, then resumes, the enabled watches on bytes of [lo, hi): the runtime writes there.
  static void suspend_within(std::uintptr_t lo, std::uintptr_t hi);
  static void resume_within(std::uintptr_t lo, std::uintptr_t hi);

  // Called on the program's access to a watched byte, on the stack of the access (inside the
  // SIGTRAP handler); the watch is removed when it returns.
  using Handler = void (*)(std::uintptr_t addr, bool is_write);
  static void set_handler(Handler handler);

  // Whether watchpoints are used: the probe (watchpoint_probe.hpp) saw one fire. Where it did not,
  // watch() gives -1 and the bytes stay unwatched.
  static bool available();
};

}  // namespace bspcheck::rt
