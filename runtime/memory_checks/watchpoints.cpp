#include "runtime/memory_checks/watchpoints.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "runtime/memory_checks/watchpoint_probe.hpp"

#ifndef TRAP_PERF
#define TRAP_PERF 6  // si_code of a perf event's SIGTRAP (asm-generic/siginfo.h, Linux 5.13)
#endif

namespace bspcheck::rt {

namespace {

constexpr int kRegisters = 4;  // x86 and arm64 user-space data breakpoints: at least four
constexpr int kMaxPieces = 3;  // an edge of up to 7 bytes in aligned pieces of 4, 2 and 1

struct Watch {
  bool used = false;
  bool enabled = false;
  bool suspended = false;  // disabled by suspend_within, enabled again by resume_within
  bool fired = false;      // reported once: never enabled again
  std::uintptr_t lo = 0, hi = 0;
  int fds[kMaxPieces] = {-1, -1, -1};
  int pieces = 0;
  unsigned char bytes[8] = {};  // the watched bytes when the watch was last enabled
};

// Every watch of the thread that runs the processes (one world per OS process).
std::array<Watch, kRegisters> g_watches;
Watchpoints::Handler g_handler = nullptr;
bool g_installed = false;
struct sigaction g_previous_action;

int open_piece(std::uintptr_t addr, int len, bool enabled) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_BREAKPOINT;
  attr.size = sizeof attr;
  attr.bp_type = HW_BREAKPOINT_RW;  // x86 has no read-only data breakpoint
  attr.bp_addr = addr;
  attr.bp_len = static_cast<std::uint64_t>(len);
  attr.sample_period = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = enabled ? 0 : 1;
  attr.sigtrap = 1;         // a synchronous SIGTRAP right after the access...
  attr.remove_on_exec = 1;  // ...which the kernel requires to go with this
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

void set_fds(Watch& w, bool on) {
  for (int i = 0; i < w.pieces; ++i) ioctl(w.fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

// The watched bytes may be poisoned meanwhile (another region ends right after them, and ASan
// then poisons their granule whole): read them past ASan, byte by byte (no memcpy to intercept).
__attribute__((no_sanitize("address", "thread", "undefined"))) void copy_watched(unsigned char* to, std::uintptr_t lo,
                                                                                 std::uintptr_t hi) {
  for (std::uintptr_t a = lo; a < hi; ++a) to[a - lo] = *reinterpret_cast<const volatile unsigned char*>(a);
}

// Enabling takes a copy of the bytes first (with the watch off: reading them would trap).
void enable(Watch& w, bool on) {
  if (on == w.enabled || (on && w.fired)) return;
  if (on) copy_watched(w.bytes, w.lo, w.hi);
  set_fds(w, on);
  w.enabled = on;
}

void close_watch(Watch& w) {
  for (int i = 0; i < w.pieces; ++i) close(w.fds[i]);
  w = Watch{};
}

// Where the code at a frame's address comes from.
enum class Origin { runtime, support, program };

Origin origin(const void* pc) {
  static const void* const runtime_base = [] {
    Dl_info self{};
    return dladdr(reinterpret_cast<const void*>(&Watchpoints::watch), &self) ? self.dli_fbase : nullptr;
  }();
  Dl_info info{};
  if (!dladdr(pc, &info) || !info.dli_fname) return Origin::support;  // unknown: look further out
  if (info.dli_fbase == runtime_base) return Origin::runtime;
  std::string_view name = info.dli_fname;
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  for (std::string_view lib : {"libc.so", "libc-", "libm.so", "libstdc++", "libgcc_s", "ld-linux", "libasan",
                               "libubsan", "libtsan", "libpthread"})
    if (name.substr(0, lib.size()) == lib) return Origin::support;
  return Origin::program;
}

const void* interrupted_pc(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return reinterpret_cast<const void*>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return nullptr;
#endif
}

// Whether the access was the program's: the first frame from the access outwards that is not in
// the C or C++ support libraries is not bsp-check's own library.
bool by_program(const void* context) {
  const void* pc = interrupted_pc(context);
  void* frames[64];
  const int n = backtrace(frames, 64);
  int i = 0;
  while (i < n && frames[i] != pc) ++i;  // skip this handler and the signal frame
  if (i == n) return origin(pc) != Origin::runtime;
  for (; i < n; ++i) {
    const Origin o = origin(frames[i]);
    if (o != Origin::support) return o == Origin::program;
  }
  return true;
}

void chain(int sig, siginfo_t* info, void* context) {
  const struct sigaction& prev = g_previous_action;
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) prev.sa_sigaction(sig, info, context);
  } else if (prev.sa_handler == SIG_DFL) {
    signal(sig, SIG_DFL);  // a SIGTRAP that is not ours: what it would have done without us
    raise(sig);
  } else if (prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
  }
}

void on_sigtrap(int sig, siginfo_t* info, void* context) {
  if (info->si_code != TRAP_PERF) return chain(sig, info, context);
  const int saved_errno = errno;
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Watch& w : g_watches) {
    if (!w.used || !w.enabled || addr < w.lo || addr >= w.hi) continue;
    if (!by_program(context)) {  // the runtime's own copy or hash, which may have written the bytes
      enable(w, false);
      enable(w, true);  // with a fresh copy of them
      break;
    }
    // Off before the bytes are compared: a trap inside this handler would kill the process.
    set_fds(w, false);
    w.enabled = false;
    w.fired = true;
    unsigned char now[sizeof w.bytes];
    copy_watched(now, w.lo, w.hi);
    const bool is_write = std::memcmp(w.bytes, now, w.hi - w.lo) != 0;
    if (g_handler) g_handler(addr, is_write);
    break;
  }
  errno = saved_errno;
}

void install_handler() {
  if (g_installed) return;
  void* warm[2];
  backtrace(warm, 2);  // loads the unwinder now, not inside the handler
  struct sigaction action {};
  action.sa_sigaction = &on_sigtrap;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTRAP, &action, &g_previous_action);
  g_installed = true;
}

}  // namespace

// Not whether perf_event_open accepts a breakpoint, but whether one fires (watchpoint_probe.hpp).
bool Watchpoints::available() { return probe_watchpoints().fires(); }

int Watchpoints::watch(std::uintptr_t lo, std::uintptr_t hi, bool enabled) {
  if (hi <= lo || hi - lo > 7 || !available()) return -1;
  int id = 0;
  while (id < kRegisters && g_watches[id].used) ++id;
  if (id == kRegisters) return -1;
  const int saved_errno = errno;
  install_handler();
  Watch& w = g_watches[id];
  w.used = true;
  w.lo = lo;
  w.hi = hi;
  for (std::uintptr_t at = lo; at < hi;) {
    int len = 4;
    while (at % len != 0 || at + len > hi) len /= 2;
    const int fd = open_piece(at, len, false);
    if (fd < 0) {  // the registers are taken (a debugger, other watches): nothing half-watched
      close_watch(w);
      errno = saved_errno;
      return -1;
    }
    w.fds[w.pieces++] = fd;
    at += len;
  }
  enable(w, enabled);
  errno = saved_errno;
  return id;
}

void Watchpoints::set_enabled(int id, bool enabled) {
  if (id < 0 || id >= kRegisters || !g_watches[id].used) return;
  const int saved_errno = errno;
  g_watches[id].suspended = false;
  enable(g_watches[id], enabled);
  errno = saved_errno;
}

void Watchpoints::remove(int id) {
  if (id < 0 || id >= kRegisters || !g_watches[id].used) return;
  const int saved_errno = errno;
  close_watch(g_watches[id]);
  errno = saved_errno;
}

void Watchpoints::suspend_within(std::uintptr_t lo, std::uintptr_t hi) {
  for (Watch& w : g_watches)
    if (w.used && w.enabled && w.lo < hi && lo < w.hi) {
      const int saved_errno = errno;
      enable(w, false);
      w.suspended = true;
      errno = saved_errno;
    }
}

void Watchpoints::resume_within(std::uintptr_t lo, std::uintptr_t hi) {
  for (Watch& w : g_watches)
    if (w.used && w.suspended && w.lo < hi && lo < w.hi) {
      const int saved_errno = errno;
      w.suspended = false;
      enable(w, true);
      errno = saved_errno;
    }
}

void Watchpoints::set_handler(Handler handler) { g_handler = handler; }

}  // namespace bspcheck::rt
