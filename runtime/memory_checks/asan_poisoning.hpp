// asan_poisoning.hpp: precise detection of reads that BSPlib forbids, in AddressSanitizer builds.
//
// While a region must not be read by the program, the runtime poisons it (ASan's manual
// poisoning interface, resolved through weak symbols so that plain builds pay nothing):
//   hp-dst-read         the destination of an hpput/hpget during its superstep
//   get-dst-early-read  the destination of a bsp_get before the sync that writes it
//   hpmove-stale        message storage handed out by bsp_hpmove, after its superstep ended
// When the program touches a poisoned byte ASan stops it; its death callback finds the region,
// reports the finding in bsp-check's words (process, superstep, call site) and ends the run.
// ASan poisons in 8-byte granules, a granule only from some byte to its end: the last bytes of a
// region that share their granule with live bytes after them stay unpoisoned, and a hardware
// watchpoint watches them instead where one is free (watchpoints.hpp).
//
// A private global (private_globals.hpp) has one live address that holds whichever process runs:
// its region belongs to one process and is poisoned only while that process runs. The world
// tells the registry at every switch (switch_process), which costs nothing while no such region
// exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bspcheck/rules.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

struct PoisonedRegion {
  std::uintptr_t lo, hi;
  Rule rule;   // what touching the region breaks
  int caller;  // the process whose call made the region forbidden
  int owner;   // the process whose memory it is
  int superstep;
  Site site;
  const char* call;
  int private_to = -1;  // >= 0: a private global's live bytes, forbidden to this process only
  int watch = -1;       // >= 0: the watchpoint on its last bytes, which ASan cannot poison
};

// What touching a poisoned region breaks, as the finding says it.
struct PoisonedAccess {
  Rule rule;
  std::string message;
};

class Poisoning {
 public:
  Poisoning() = default;
  ~Poisoning();
  Poisoning(const Poisoning&) = delete;
  Poisoning& operator=(const Poisoning&) = delete;

  // The memory-poisoning functions: AddressSanitizer's (weak symbols, absent from plain builds),
  // or a test's stand-ins.
  struct Hooks {
    void (*poison)(void const volatile* addr, std::size_t size) = nullptr;
    void (*unpoison)(void const volatile* addr, std::size_t size) = nullptr;
    // Whether the byte is unaddressable (a redzone, another poisoned region): a region that ends
    // in the middle of a granule is poisoned up to its end only if the byte after it is. Without
    // it, every region is taken as poisoned whole (no watchpoints).
    int (*is_poisoned)(void const volatile* addr) = nullptr;
  };
  // Replaces the functions (tests); set_hooks({}) goes back to AddressSanitizer's.
  static void set_hooks(const Hooks& hooks);

  static bool available();  // there is a poisoning function: the program runs under AddressSanitizer

  void poison(const PoisonedRegion& r);
  // Makes [p, p + n) readable again (before the runtime itself writes or hashes it).
  static void unpoison(const void* p, std::size_t n);
  static void repoison(const void* p, std::size_t n);
  // Unpoisons and forgets every region of the given rule.
  void release(Rule rule);
  // Unpoisons and forgets the regions that start within [lo, hi).
  void release_within(std::uintptr_t lo, std::uintptr_t hi);
  // The region the running process may not touch at addr (nullptr: none).
  const PoisonedRegion* find(std::uintptr_t addr) const;

  // Process `to` starts running: the private regions of the one that stops are lifted and its own
  // are poisoned. The runtime swaps the live values of the private globals in between, with the
  // outgoing process's regions lifted (leave_process), so that no watchpoint sees the copy.
  void leave_process() {
    if (__builtin_expect(private_regions_ != 0, false)) lift_private_regions();
  }
  void switch_process(int to) {
    if (__builtin_expect(private_regions_ != 0, false)) switch_private_regions(to);
    resident_ = to;
  }

  // How many region ends ASan could not poison went unwatched because watchpoints do not work here
  // (watchpoint_probe.hpp): accesses to them were not checked.
  std::size_t unwatched() const { return unwatched_; }

  // Called from ASan's death callback with the faulting region (nullptr: not a poisoned region,
  // e.g. another memory error or a signal ASan handled) and the access type, or from a
  // watchpoint's trap (trapped: in a signal handler, after the access); nullptr to stop.
  using Reporter = std::function<void(const PoisonedRegion*, std::uintptr_t addr, bool is_write, bool trapped)>;
  static void set_reporter(Reporter f);

  // The rule and message of process pid's access to region r (nullptr: some other memory error
  // ASan stopped it for; last_call is the process's last BSPlib call): writing an hp destination
  // is hp-dst-conflict, reading it hp-dst-read; the region's own rule otherwise.
  static PoisonedAccess describe_access(const PoisonedRegion* r, int pid, bool is_write, const char* last_call);

 private:
  // Whether the region's bytes are poisoned now: shared memory always, a private global's while
  // its process runs.
  bool live(const PoisonedRegion& r) const { return r.private_to < 0 || r.private_to == resident_; }
  void lift_private_regions();
  void switch_private_regions(int to);
  void forget(std::size_t keep);                          // keeps regions_[0, keep), recounting the private ones
  int watch_edge(const PoisonedRegion& r, bool enabled);  // the watchpoint of r's unpoisonable end

  std::vector<PoisonedRegion> regions_;
  std::size_t private_regions_ = 0;  // regions with private_to >= 0
  int resident_ = 0;                 // the running process
  std::size_t unwatched_ = 0;
};

}  // namespace bspcheck::rt
