// asan_poisoning.hpp: precise detection of reads that BSPlib forbids, in AddressSanitizer builds.
//
// While a region must not be read by the program, the runtime poisons it (ASan's manual
// poisoning interface, resolved through weak symbols so that plain builds pay nothing):
//   hp-dst-read         the destination of an hpput/hpget during its superstep
//   get-dst-early-read  the destination of a bsp_get before the sync that writes it
//   hpmove-stale        message storage handed out by bsp_hpmove, after its superstep ended
// When the program touches a poisoned byte ASan reports it; the runtime's report callback finds the
// region and reports the finding in bsp-check's words (process, superstep, call site). A warning
// (get-dst-early-read: the read is defined) lets the program go on where ASan can resume it (a
// program built with -fsanitize-recover=address, run with asan_recovery.hpp's options); every
// other report ends the run, as ASan would without them.
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
  // An hpput's destination poisoned from its superstep's start, before the call is made (a probe:
  // Options::hp_race_probes): the target touched it while the hpput was still to come.
  bool before_call = false;
};

// How an access to a poisoned region was caught: where the access's stack is, and whether the
// program can go on after a warning.
enum class Caught {
  asan_report,  // AddressSanitizer's report callback, on the stack of the access; ASan may resume
  asan_death,   // its death callback: the program is being stopped
  watchpoint,   // a watchpoint's trap, after the access (in a signal handler)
  // ASan's death callback right after a warning the runtime went on from: ASan halts all the same
  // (halt_on_error=1, or a program built without -fsanitize-recover=address)
  asan_halt_after_warning,
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
  // Whether a region poisoned now overlaps [lo, hi).
  bool poisoned_within(std::uintptr_t lo, std::uintptr_t hi) const;
  // Poisons again, whole, the regions poisoned now that overlap [lo, hi) (after the runtime
  // unpoisoned those bytes to read them itself).
  void repoison_overlapping(std::uintptr_t lo, std::uintptr_t hi) const;
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

  // Called with the faulting region (nullptr: not a poisoned region, e.g. another memory error or
  // a signal ASan handled), the access type and how it was caught; nullptr to stop. With
  // Caught::asan_report it is called for the regions whose access is a warning only, and returns
  // to let the program go on (after releasing the region); every other report comes as
  // Caught::asan_death, after which the program ends (the reporter may end it first).
  using Reporter = std::function<void(const PoisonedRegion*, std::uintptr_t addr, bool is_write, Caught how)>;
  static void set_reporter(Reporter f);
  // The rule of an access to region r is a warning: the program may go on after it.
  static bool may_go_on(const PoisonedRegion& r);

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

  // ASan's report text is discarded while this world has a get-dst-early-read region: a warning
  // is bsp-check's finding alone, and the report callback prints the text of any other report.
  void quiet_reports_while_warnings_possible();

  std::vector<PoisonedRegion> regions_;
  bool quiet_ = false;               // this registry holds reports quiet (quiet_reports_while_warnings_possible)
  std::size_t private_regions_ = 0;  // regions with private_to >= 0
  int resident_ = 0;                 // the running process
  std::size_t unwatched_ = 0;
};

}  // namespace bspcheck::rt
