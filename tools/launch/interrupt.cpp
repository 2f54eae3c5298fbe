#include "tools/launch/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace bspcheck::cli {

namespace {

// Everything the handler touches is lock-free and async-signal-safe.
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};  // signals received
std::atomic<bool> g_installed{false};
// A run, a fork server, a divergence re-run, for each of -j workers: a child that found no free
// slot would not be killed by an interrupt, so there are plenty.
constexpr int kSlots = 1024;
std::atomic<pid_t> g_targets[kSlots];  // kill() targets: -pgid or pid; 0 = free
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void kill_children() {
  for (auto& t : g_targets)
    if (const pid_t target = t.load(); target != 0) kill(target, SIGKILL);
}

extern "C" void on_interrupt(int sig) {
  const int saved_errno = errno;
  int expected = 0;
  g_signal.compare_exchange_strong(expected, sig);
  kill_children();
  // A second signal only kills the children again: the session ends as after the first one
  // (which waits for nothing but the killed children), removes its temporary folders and writes
  // its reports. A second signal is common: `timeout` signals the driver and then its whole process
  // group, the driver again. Only a third one ends the driver at once, with no tidying.
  if (g_count.fetch_add(1) + 1 >= 3) {
    signal(sig, SIG_DFL);
    raise(sig);
  }
  errno = saved_errno;
}

}  // namespace

void ignore_broken_pipes() { signal(SIGPIPE, SIG_IGN); }

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR and the loop looks at the flag
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  g_installed = true;
}

int interrupt_signal() { return g_signal.load(); }

const char* interrupt_signal_name() {
  switch (interrupt_signal()) {
    case 0:
      return "";
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

bool child_gets_own_group(bool stdin_is_terminal) { return g_installed.load() && !stdin_is_terminal; }

WatchedChild::WatchedChild(pid_t pid, bool own_group) {
  if (pid <= 0) return;
  const pid_t target = own_group ? -pid : pid;
  for (int i = 0; i < kSlots; ++i) {
    pid_t expected = 0;
    if (g_targets[i].compare_exchange_strong(expected, target)) {
      slot_ = i;
      break;
    }
  }
  if (interrupted()) kill(target, SIGKILL);  // the signal came before the registration
}

WatchedChild::~WatchedChild() {
  if (slot_ >= 0) g_targets[slot_] = 0;
}

void restore_default_signals() {
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

}  // namespace bspcheck::cli
