#include "runtime/memory_checks/watchpoint_probe.hpp"

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#ifndef TRAP_PERF
#define TRAP_PERF 6  // si_code of a perf event's SIGTRAP (asm-generic/siginfo.h, Linux 5.13)
#endif

namespace bspcheck::rt {

namespace {

// The probe's own byte: nothing else reads it, so a trap for it can only be the probe's read.
volatile unsigned char g_probe_byte;
volatile sig_atomic_t g_probe_fd = -1;
volatile sig_atomic_t g_probe_fired = 0;

void on_probe_trap(int, siginfo_t* info, void*) {
  if (info->si_code != TRAP_PERF || info->si_addr != const_cast<unsigned char*>(&g_probe_byte)) return;
  const int saved_errno = errno;
  ioctl(g_probe_fd, PERF_EVENT_IOC_DISABLE, 0);  // once is enough
  g_probe_fired = 1;
  errno = saved_errno;
}

// The same kind of breakpoint watchpoints.cpp opens: one byte, reads and writes, a synchronous
// SIGTRAP right after the access.
int open_breakpoint(bool enabled) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_BREAKPOINT;
  attr.size = sizeof attr;
  attr.bp_type = HW_BREAKPOINT_RW;
  attr.bp_addr = reinterpret_cast<std::uintptr_t>(&g_probe_byte);
  attr.bp_len = HW_BREAKPOINT_LEN_1;
  attr.sample_period = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = enabled ? 0 : 1;
  attr.sigtrap = 1;
  attr.remove_on_exec = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// Out of line, with the read volatile and fenced: the compiler may neither drop it nor move it
// past the check of the flag the handler sets.
__attribute__((noinline)) void touch_probe_byte() {
  (void)g_probe_byte;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

#if defined(__x86_64__) || defined(__aarch64__)
constexpr bool kKnownMachine = true;
#else
constexpr bool kKnownMachine = false;  // watchpoints.cpp does not know where the trapped PC is kept
#endif

WatchpointProbe run_probe() {
  WatchpointProbe probe;
  if (!kKnownMachine) return probe;  // unsupported
  const int saved_errno = errno;
  const char* simulate = std::getenv("BSPCHECK_SIMULATE_SILENT_WATCHPOINTS");
  const bool silent_machine = simulate && *simulate && std::strcmp(simulate, "0") != 0;
  // The handler first: a trap without one would end the process.
  struct sigaction action {
  }, previous{};
  action.sa_sigaction = &on_probe_trap;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTRAP, &action, &previous);
  const int fd = open_breakpoint(!silent_machine);
  if (fd < 0) {
    probe.answer = WatchpointProbe::Answer::refused;
    probe.error = errno;
    sigaction(SIGTRAP, &previous, nullptr);
    errno = saved_errno;
    return probe;
  }
  g_probe_fd = fd;
  g_probe_fired = 0;
  touch_probe_byte();  // the trap, if any, is delivered before this returns (it is synchronous)
  const bool fired = g_probe_fired != 0;
  ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  sigaction(SIGTRAP, &previous, nullptr);
  close(fd);
  g_probe_fd = -1;
  probe.answer = fired ? WatchpointProbe::Answer::fire : WatchpointProbe::Answer::silent;
  errno = saved_errno;
  return probe;
}

}  // namespace

const char* WatchpointProbe::word() const {
  switch (answer) {
    case Answer::fire:
      return "fire";
    case Answer::silent:
      return "silent";
    case Answer::refused:
      return "refused";
    case Answer::unsupported:
      break;
  }
  return "unsupported";
}

std::string WatchpointProbe::describe() const {
  switch (answer) {
    case Answer::fire:
      return "fire (a hardware breakpoint on a byte fired when the byte was read)";
    case Answer::silent:
      return "silent (perf_event_open accepted a hardware breakpoint on a byte, but reading the byte did not fire it"
             " - a hypervisor that does not pass the debug registers through, or "
             "BSPCHECK_SIMULATE_SILENT_WATCHPOINTS)";
    case Answer::refused:
      return std::string("refused (perf_event_open of a hardware breakpoint: ") + std::strerror(error) + ")";
    case Answer::unsupported:
      break;
  }
  return "unsupported (only x86-64 and arm64 are known)";
}

const WatchpointProbe& probe_watchpoints() {
  static const WatchpointProbe probe = run_probe();
  return probe;
}

}  // namespace bspcheck::rt
