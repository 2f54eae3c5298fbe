// program_signals.cpp: crash and timeout containment in program mode. The handlers run on a
// signal stack of their own; they locate the signal at the running process and stop the run with
// its report (stop_program).
#include "engine/host/program_signals.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/core/foreign_contexts.hpp"
#include "engine/host/program_end.hpp"
#include "engine/host/program_report.hpp"
#include "engine/host/program_session.hpp"
#include "runtime/executable/backtrace.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/isolation/process_snapshot.hpp"

namespace bspcheck::rt::program {

namespace {

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (segmentation fault)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic exception)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (abort)";
    default:
      return "a signal";
  }
}

void on_crash(int sig, siginfo_t* info, void* uc) {
  const int fault_errno = errno;  // the program's, before this handler calls anything
  static volatile sig_atomic_t in_handler = 0;
  if (in_handler) std::_Exit(1);
  in_handler = 1;
  World* w = g_session.world.get();
  if (in_forked_child()) {  // a child the program forked dies as it would outside bsp-check
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  if (!w && g_session.report_written) {  // after bsp_end: still a finding of the run, in its report
    report_outside_spmd(Finding{rule_id(Rule::crash),
                                rule_severity(Rule::crash),
                                std::string("process 0 received ") + signal_name(sig) +
                                    " after bsp_end (the SPMD part had completed; its bsp_end is named)",
                                {0},
                                g_session.final_superstep,
                                {g_session.end_location}});
    std::fflush(nullptr);
    std::_Exit(1);
  }
  if (!w) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  std::FILE* err = w->real_out[1];
  const int pid = w->pid();
  std::string msg = "process " + std::to_string(pid) + " received " + signal_name(sig);
  bool overflow = false;
  for (const Process& pr : w->processes())
    if (pr.stack.in_guard(info->si_addr)) {
      overflow = true;
      msg = "process " + std::to_string(pr.pid) +
            " overflowed its stack (it hit the guard page); raise the stack size with "
            "--stack-size (BSPCHECK_OPTIONS=stack=SIZE), now " +
            std::to_string(pr.stack.size / 1024) + " KiB";
    }
  // Past the end of the running process's own stack: an unguarded stack that ran through the
  // stacks below it to its chunk's guard page, or process 0 at the main stack's limit.
  const auto sp = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RSP]);
  const Process& running = w->self();
  const auto base = reinterpret_cast<std::uintptr_t>(running.stack.base);
  const bool below_own = running.stack.base
                             ? sp < base + 256
                             : g_session.main_stack_low != 0 && sp < g_session.main_stack_low + 64 * 1024 &&
                                   sp + (8u << 20) > g_session.main_stack_low;
  if (!overflow && (sig == SIGSEGV || sig == SIGBUS) && below_own) {
    overflow = true;
    const std::size_t size = running.stack.base ? running.stack.size : g_session.main_stack_limit;
    msg = "process " + std::to_string(running.pid) + " overflowed its stack (" +
          (running.stack.base ? std::string("it ran past its end")
                              : std::string("the main thread's stack, at its limit")) +
          "); raise the stack size with --stack-size (BSPCHECK_OPTIONS=stack=SIZE), now " +
          std::to_string((size + 1023) / 1024) + " KiB" +  // (an unguarded stack is 64 bytes short: its canary's)
          (!running.stack.base && g_session.main_stack_capped
               ? std::string(" for process 0, capped by the hard stack limit (ulimit -Hs)")
               : std::string());
  }
  if (!overflow && (sig == SIGSEGV || sig == SIGBUS)) {
    char addr[32];
    std::snprintf(addr, sizeof addr, " at address %p", info->si_addr);
    msg += addr;
  }
  // A null pointer used while errno says an allocation failed (malloc sets ENOMEM, and nothing
  // has touched errno since): the process ran out of memory, located at the program's line.
  if (!overflow && sig == SIGSEGV && reinterpret_cast<std::uintptr_t>(info->si_addr) < 65536 && fault_errno == ENOMEM) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", info->si_addr);
    w->report(Rule::out_of_memory,
              "process " + std::to_string(pid) + " ran out of memory: it used a null pointer (address " + addr +
                  ") while errno was ENOMEM, so an allocation had failed, most likely the one that gave this "
                  "pointer (malloc, calloc and realloc return NULL when memory runs out) and the program did not "
                  "check it",
              {}, capture_interrupted_stack(), location_event::null_pointer_use);
    print_backtrace(err, 2);
    stop_program(1);
  }
  msg += "; its last BSPlib call was " + std::string(w->self().call);
  if (overflow) {  // located at the last call: an overflowed stack has no room left to unwind
    w->report(Rule::crash, msg);
    stop_program(1);
  }
  // Located at the program's line where the signal struck (its stack shown there, to main), and
  // at the last call. Without debug information, at the last call with the raw backtrace.
  if (!w->report_event(Rule::crash, msg, capture_interrupted_stack(), location_event::signal))
    print_backtrace(err, 2);  // not this handler
  stop_program(1);
}

// A signal whose default action ends the process (SIGTERM, SIGINT, SIGUSR1...), sent by the
// program to itself (raise, kill(getpid(), ...)): a crash of the running process, located at the
// line that sent it, as a separate process would have died there. One from elsewhere (a kill from
// outside, the kernel's alarm) dies as it would without bsp-check: it may have struck anywhere,
// even inside malloc, where this handler could not safely build a report.
void on_terminating_signal(int sig, siginfo_t* info, void* uc) {
  const bool self_sent = (info->si_code == SI_USER || info->si_code == SI_TKILL || info->si_code == SI_QUEUE) &&
                         info->si_pid == static_cast<pid_t>(syscall(SYS_getpid));
  if (!self_sent || !g_session.world || in_forked_child()) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  static volatile sig_atomic_t in_handler = 0;
  if (in_handler) std::_Exit(1);
  in_handler = 1;
  (void)uc;
  World* w = g_session.world.get();
  const char* abbrev = sigabbrev_np(sig);
  const char* what = strsignal(sig);
  std::string msg = "process " + std::to_string(w->pid()) + " sent itself SIG" +
                    (abbrev ? abbrev : std::to_string(sig)) + " (" + (what ? what : "a signal") +
                    ") with raise or kill, and nothing handles it: its default "
                    "action ends the process; its last BSPlib call was " +
                    w->self().call;
  if (!w->report_event(Rule::crash, msg, capture_interrupted_stack(), location_event::signal))
    print_backtrace(w->real_out[1], 2);
  stop_program(1);
}

// Signals whose default action ends the process, left at that default by the program when it
// reached bsp_begin (a handler or SIG_IGN it set is its own business). SIGALRM is the timeout's
// when one is set (arm_timeout, later).
void install_terminating_signal_handlers() {
  struct sigaction sa {};
  sa.sa_sigaction = &on_terminating_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
                  SIGTRAP, SIGSYS}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
      sigaction(sig, &sa, nullptr);
  }
}

// Where process pr was when the run timed out, and in which state (every process is named, in
// the structured reports too). A process that never ran is at the bsp_begin that starts them all.
Location timeout_location(World& w, const Process& pr) {
  const bool running = pr.pid == w.pid() && pr.state != ProcState::finished;
  if (!pr.begun && !running) {
    Location l = w.diagnostics().location(g_session.begin_site, pr.pid, "bsp_begin");
    l.state = pr.started ? "started, not yet through its bsp_begin" : "never ran (it starts at bsp_begin)";
    return l;
  }
  Location l = w.diagnostics().location(pr.site, pr.pid, pr.call);
  // The running process is named with the others not at the barrier whatever its state says:
  // the alarm may come while it runs the barrier itself (a single process syncing in a loop).
  switch (running ? ProcState::runnable : pr.state) {
    case ProcState::runnable:
      l.state = running ? "running, not at the barrier" : "not at the barrier";
      break;
    case ProcState::local_wait:  // a counting (cBSP) or lazy (BSPk) sync: it waits for its own condition
      l.state = std::string("waiting in ") + pr.call;
      break;
    case ProcState::in_sync:
      l.state = "waiting in bsp_sync";
      break;
    case ProcState::in_end:
    case ProcState::finished:
      l.state = "reached bsp_end";
      break;
  }
  return l;
}

void on_timeout(int) {
  World* w = g_session.world.get();
  if (!w) std::_Exit(1);
  // The limit is on the whole run, from bsp_begin: every process is located with its state; the
  // finding's processes are those that had not reached the barrier.
  Finding f;
  f.rule = rule_id(Rule::timeout);
  std::string stuck, waiting, waiting_own, ended;
  auto add = [](std::string& list, int pid) { list += (list.empty() ? "" : ", ") + std::to_string(pid); };
  for (const Process& pr : w->processes()) {
    Location l = timeout_location(*w, pr);
    if (l.state == "waiting in bsp_sync") add(waiting, pr.pid);
    else if (l.state.rfind("waiting in ", 0) == 0) add(waiting_own, pr.pid);
    else if (l.state == "reached bsp_end") add(ended, pr.pid);
    else {
      add(stuck, pr.pid);
      f.processes.push_back(pr.pid);
    }
    f.locations.push_back(std::move(l));
  }
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", options().timeout_seconds);
  f.message = "the run did not finish within its time limit of " + std::string(limit) +
              " s (--timeout, counted from bsp_begin); in superstep " + std::to_string(w->superstep()) +
              ", process(es) " + stuck + " had not reached their next bsp_sync (process " + std::to_string(w->pid()) +
              " was running)";
  if (!waiting.empty()) f.message += "; process(es) " + waiting + " waited in bsp_sync";
  if (!waiting_own.empty())
    f.message += "; process(es) " + waiting_own + " waited in a counting or lazy sync for their own condition";
  if (!ended.empty()) f.message += "; process(es) " + ended + " had reached bsp_end";
  f.message += w->timeout_hazard();
  f.message += "; each process is located with its state";
  f.superstep = w->superstep();
  w->diagnostics().report(std::move(f));
  stop_program(1);
}

}  // namespace

// The crash handlers and their signal stack, once per OS process: before the fork server's
// snapshot moment, so that a worker's runs inherit them instead of paying 13 system calls each
// (installed, then set back by the restore). Until a run starts they act as the defaults do
// (on_crash re-raises when there is no world).
void install_crash_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  // Mapped, not allocated, so that its pages are touched only by a crash (a zero-filled vector
  // cost every forked run 64 KiB of page faults); between guard pages, which keep it a mapping of
  // its own that a snapshot can leave unsaved (its bytes matter only during a crash).
  // 1 MiB: a crash's report, its stacks symbolised and the run's kept files copied (a 4 KiB
  // directory buffer per level) take more than 64 KiB under AddressSanitizer, whose frames carry
  // redzones, and a frame larger than the guard page would step over it. Untouched pages cost
  // nothing.
  constexpr std::size_t kAltStack = 1 << 20;
  const std::size_t page = StackPool::page_size();
  void* m = mmap(nullptr, kAltStack + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m != MAP_FAILED) {
    char* alt = static_cast<char*>(m) + page;
    if (mprotect(alt, kAltStack, PROT_READ | PROT_WRITE) == 0) {
      ProcessSnapshot::leave_unsaved(alt, kAltStack);
      stack_t ss{};
      ss.ss_sp = alt;
      ss.ss_size = kAltStack;
      sigaltstack(&ss, nullptr);
    }
  }
  struct sigaction sa {};
  sa.sa_sigaction = &on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  install_terminating_signal_handlers();
}

// The run's time limit (--timeout), from bsp_begin.
void arm_timeout() {
  if (options().timeout_seconds <= 0) return;
  struct sigaction ta {};
  ta.sa_handler = &on_timeout;
  ta.sa_flags = SA_ONSTACK;
  sigaction(SIGALRM, &ta, nullptr);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(options().timeout_seconds);
  t.it_value.tv_usec = static_cast<suseconds_t>((options().timeout_seconds - t.it_value.tv_sec) * 1e6);
  setitimer(ITIMER_REAL, &t, nullptr);
}

}  // namespace bspcheck::rt::program
