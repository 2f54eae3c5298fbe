// watchpoint_probe.hpp: whether hardware watchpoints work on this machine, seen, not assumed.
//
// perf_event_open accepting a hardware breakpoint does not mean it fires: under a hypervisor that
// does not pass the debug registers through, the open succeeds and the breakpoint never triggers.
// Trusting the open would leave the checks that need a watchpoint (watchpoints.hpp) missing
// accesses without a word. So the probe arms a watchpoint on a byte of its own, reads the byte,
// and sees the SIGTRAP arrive; only then are watchpoints used.
//
// BSPCHECK_SIMULATE_SILENT_WATCHPOINTS=1 makes the probe see such a machine: the breakpoint is
// opened as usual but never enabled, so the read goes unseen. The tests use it to check the
// fallback on machines whose watchpoints work.
#pragma once

#include <string>

namespace bspcheck::rt {

struct WatchpointProbe {
  enum class Answer {
    fire,         // armed, touched, fired: watchpoints are used
    silent,       // perf_event_open accepted the breakpoint, but the access did not fire it
    refused,      // perf_event_open refused it (seccomp, perf_event_paranoid = 3, Linux < 5.13)
    unsupported,  // not x86-64 or arm64: where the interrupted instruction is kept is not known
  };
  Answer answer = Answer::unsupported;
  int error = 0;  // errno of a refused perf_event_open

  bool fires() const { return answer == Answer::fire; }
  // "fire", "silent", "refused" or "unsupported": the word `bsp-check --version` prints.
  const char* word() const;
  // One line for a person: the word and why, e.g. "silent (perf_event_open accepted a hardware
  // breakpoint on a byte, and reading the byte did not fire it)".
  std::string describe() const;
};

// Probes once per OS process, on the first call (from the thread that will use the watchpoints:
// perf events opened for "this thread" count only its accesses). It installs a SIGTRAP handler for
// the time of the probe and restores the previous one.
const WatchpointProbe& probe_watchpoints();

}  // namespace bspcheck::rt
