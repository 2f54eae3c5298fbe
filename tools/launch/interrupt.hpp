// interrupt.hpp: how `bsp-check run` (and replay) stops when it is told to. SIGINT, SIGTERM and
// SIGHUP end the session within a moment: the handler kills the process groups of the children
// running now (a run, a fork server with its forked run), the session loop sees interrupted()
// and stops, writes complete reports that say so, removes its temporary files and exits with
// 128 + the signal. A second signal kills the children again and changes nothing else (the
// session's end waits for nothing but killed children); a third kills the driver at once.
#pragma once

#include <sys/types.h>

namespace bspcheck::cli {

// A write to a pipe whose reader is gone (a program that ended before bsp_begin, a run that did
// not read its input) is an EPIPE for the driver to handle, not a signal that kills it.
void ignore_broken_pipes();

// Installs the SIGINT/SIGTERM/SIGHUP handlers. From then on the driver's children run in their
// own process groups (see child_gets_own_group) so that one kill reaches all of a run.
void install_interrupt_handlers();

// The signal that interrupted the session, or 0.
int interrupt_signal();
inline bool interrupted() { return interrupt_signal() != 0; }
// Its name, as the reports give it: "SIGINT", "SIGTERM" or "SIGHUP"; "" before any.
const char* interrupt_signal_name();

// Whether a child started now should lead its own process group: only when handlers are
// installed (someone will kill it) and it does not read the terminal (a background group that
// reads the terminal would be stopped by SIGTTIN).
bool child_gets_own_group(bool stdin_is_terminal);

// While a WatchedChild lives, an interrupt kills `pid` (its whole group when it leads one). A
// child registered after the interrupt is killed at once: no run starts after an interrupt.
class WatchedChild {
 public:
  WatchedChild(pid_t pid, bool own_group);
  ~WatchedChild();
  WatchedChild(const WatchedChild&) = delete;
  WatchedChild& operator=(const WatchedChild&) = delete;

 private:
  int slot_ = -1;
};

// In a child between fork and exec: the signal dispositions a program expects (SIGPIPE back to
// default: an ignored signal stays ignored across exec).
void restore_default_signals();

}  // namespace bspcheck::cli
