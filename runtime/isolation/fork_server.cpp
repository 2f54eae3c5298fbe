#include "runtime/isolation/fork_server.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <malloc.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <new>

#include "runtime/base/outside_files.hpp"
#include "runtime/base/runtime_file.hpp"
#include "runtime/options/driver_environment.hpp"
#include "runtime/executable/executable_symbols.hpp"
#include "runtime/fibers/fiber_stack.hpp"
#include "runtime/isolation/file_view.hpp"
#include "runtime/isolation/fork_server_protocol.hpp"
#include "runtime/isolation/main_stack.hpp"
#include "runtime/isolation/process_snapshot.hpp"
#include "runtime/isolation/sanitizer_shadow.hpp"

namespace bspcheck::rt {

namespace {

// A worker saves at most this much memory to come back to bsp_begin; a program with more writable
// memory at bsp_begin gets a fresh child per run (a fork's cost grows more slowly with the size).
constexpr std::size_t kSnapshotLimit = 16u << 20;
// Under AddressSanitizer its own writable memory comes first (about 25 MiB for a small program:
// its allocator's regions, its tables, its shadow of all that), mostly zeros that no restore
// copies (snapshot_helper.cpp, zero spans).
constexpr std::size_t kSanitizerSnapshotLimit = 256u << 20;

bool redirect(int fd, const char* path) {
  int f = open_outside(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (f < 0) return false;
  dup2(f, fd);
  close(f);
  return true;
}

void reap(pid_t pid, int* status) {
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
}

// What a worker keeps across its runs, in a page of its own that the snapshot leaves unsaved (the
// rest of its memory is set back after every run).
struct WorkerKeeps {
  // The run's output files on stdout and stderr, opened by the worker's first run and kept while
  // every run leaves them as it found them: a later run only rewinds them (the driver empties
  // them) instead of opening them through /proc again, 6 system calls.
  bool streams_open;
  char paths[2][128];  // as the request named them: a request naming others opens those
  struct Identity {
    dev_t dev;
    ino_t ino;
    int flags;  // the open file's status flags (O_APPEND, O_NONBLOCK): a run may change them
  } streams[2];
  // LeakSanitizer's check of its runs (finish_served_run): whether a run was checked, and whether
  // a checked run had leaks.
  bool leaks_checked, leaks_seen;
};
WorkerKeeps* g_keeps = nullptr;  // null: every run opens its files (one run per worker, no memory)

bool identify(int fd, WorkerKeeps::Identity& id) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return false;
  id = {st.st_dev, st.st_ino, fcntl(fd, F_GETFL)};
  return id.flags >= 0;
}

// After a run: are stdout and stderr still the files the worker opened, as it opened them?
bool streams_as_opened() {
  WorkerKeeps::Identity now{};
  for (int i = 0; i < 2; ++i) {
    const WorkerKeeps::Identity& was = g_keeps->streams[i];
    if (!identify(STDOUT_FILENO + i, now) || now.dev != was.dev || now.ino != was.ino || now.flags != was.flags)
      return false;
  }
  return true;
}

bool open_streams(const fork_protocol::RequestFields& request) {
  const char* paths[2] = {request.out, request.err};
  if (g_keeps && g_keeps->streams_open && std::strcmp(g_keeps->paths[0], paths[0]) == 0 &&
      std::strcmp(g_keeps->paths[1], paths[1]) == 0) {
    lseek(STDOUT_FILENO, 0, SEEK_SET);
    lseek(STDERR_FILENO, 0, SEEK_SET);
    return true;
  }
  if (!redirect(STDOUT_FILENO, paths[0]) || !redirect(STDERR_FILENO, paths[1])) return false;
  if (!g_keeps) return true;
  g_keeps->streams_open = true;
  for (int i = 0; i < 2; ++i) {
    const std::size_t n = std::strlen(paths[i]);
    g_keeps->streams_open =
        g_keeps->streams_open && n < sizeof g_keeps->paths[i] && identify(STDOUT_FILENO + i, g_keeps->streams[i]);
    if (g_keeps->streams_open) std::memcpy(g_keeps->paths[i], paths[i], n + 1);
  }
  return true;
}

// The start of a run in the process that makes it: its output files, its standard input from
// where the server's stood, its options.
bool begin_run(const fork_protocol::RequestFields& request, off_t input_at) {
  if (!open_streams(request)) return false;
  if (input_at >= 0) lseek(STDIN_FILENO, input_at, SEEK_SET);
  // Not in the environment (runtime/options/driver_environment.hpp); the request outlives the run.
  set_driver_variable(DriverVariable::options, request.options);
  set_driver_variable(DriverVariable::report, request.report);
  set_driver_variable(DriverVariable::repro, request.repro);
  return true;
}

using fork_protocol::Channel;
using fork_protocol::post;

Channel* g_channel = nullptr;  // shared: not in the saved memory
// BSPCHECK_FORKSERVER as the driver gave it, taken out of the environment when the library loads.
char g_server_spec[128];
// In the saved memory, so a worker keeps knowing it: this process is a worker that comes back to
// bsp_begin after a run.
bool g_reusable = false;
int g_runs_per_worker = 1;
bool g_in_worker_run = false;  // set as a worker takes a request (its restores set it back)

// --- the worker: a child that runs one request after another, back at bsp_begin each time ------

// In the worker: returns into bsp_begin with the next request's run set up; exits when the
// session ends.
void serve_as_worker(off_t input_at) {
  Channel& c = *g_channel;
  // The stack below is dead: cleared, the moment saves zeros there instead of the server's frames
  // for every run to restore, and bsp_begin clears less (runtime/isolation/main_stack.hpp).
  if (g_runs_per_worker > 1 && c.reusable)
    clear_main_stack_pages_below(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) - 4096);
  start_counting_blocks();  // from the moment on: each run starts with none (sanitizer_shadow.hpp)
  // Every run after the first comes back here. One run per worker saves nothing.
  g_reusable = g_runs_per_worker > 1 && c.reusable &&
               ProcessSnapshot::take(shadow_layout().present ? kSanitizerSnapshotLimit : kSnapshotLimit) !=
                   ProcessSnapshot::Taken::unavailable;
  // A worker that cannot save bsp_begin (too much memory, threads) makes
  // one run and ends as a process; its successors do not try again.
  if (!g_reusable) c.reusable = 0;
  leave_exit_leak_check_to_worker(g_reusable);
  for (std::uint32_t s; (s = c.state.load(std::memory_order_acquire)) != fork_protocol::kRequest;) {
    if (s == fork_protocol::kQuit) std::_Exit(0);
    fork_protocol::futex_wait(c.state, s, nullptr);
  }
  // Taken: a store, no wake-up; the driver waits for the end of the run, not for this.
  c.taken.store(1, std::memory_order_release);
  g_in_worker_run = true;
  fork_protocol::RequestFields request{};
  // The line only, not the whole 64 KiB field (which cost 4% of a small program's run).
  const std::size_t n = strnlen(c.request, sizeof c.request - 1);
  std::memcpy(c.decoded, c.request, n);
  c.decoded[n] = '\0';
  errno = 0;
  if (!fork_protocol::decode_in_place(c.decoded, request) || !begin_run(request, input_at)) {
    c.begin_errno = errno ? errno : EINVAL;  // shared memory: read by the driver once the run is done
    std::_Exit(127);
  }
}

// --- the server ----------------------------------------------------------------------------------

// Forks a worker; returns its pid in the server (-1 when fork failed) and 0 in the worker itself,
// which has become one.
pid_t spawn(int session_fd, const int run_fds[3]) {
  const pid_t server = static_cast<pid_t>(syscall(SYS_getpid));  // the kernel's (not --stable-pid's)
  std::fflush(nullptr);                                          // nothing buffered may be written twice
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a worker never outlives its server
    if (getppid() != server) std::_Exit(0);
    close(session_fd);
    // The worker's own view of the files, made before it saves bsp_begin: each of its runs that
    // writes no file leaves the view as it found it, and the next run takes it as it is.
    begin_run_file_view();
    for (int i = 0; i < 3; ++i)
      if (run_fds[i] >= 0 && !is_runtime_fd(run_fds[i])) close(run_fds[i]);  // (the number may be reused by now)
    if (g_runs_per_worker > 1) {
      void* page = mmap(nullptr, sizeof(WorkerKeeps), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (page != MAP_FAILED && ProcessSnapshot::leave_unsaved(page, sizeof(WorkerKeeps)))
        g_keeps = static_cast<WorkerKeeps*>(page);  // zeros: nothing open yet
    }
  }
  return pid;
}

// Waits until the worker ends or the driver closes the session; true for the worker's end (its
// status in *status), false for the session's (the worker then still lives).
bool await_worker(pid_t worker, int session_fd, int* status) {
  // A pidfd makes the worker's end something poll sees; without one (kernels before 5.3) the
  // server looks every 20 ms.
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, worker, 0));
  bool ended = false;
  for (;;) {
    pollfd fds[2] = {{session_fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
    const int ready = poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 20);
    if (ready < 0 && errno != EINTR) break;
    if (waitpid(worker, status, WNOHANG) == worker) {
      ended = true;
      break;
    }
    if (ready > 0 && fds[0].revents != 0) break;  // the driver closed the session (never writes)
  }
  if (pidfd >= 0) close(pidfd);
  return ended;
}

}  // namespace

void serve_forks_if_requested() {
  if (!g_server_spec[0]) return;
  int session_fd = -1, channel_fd = -1;
  int run_fds[3] = {-1, -1, -1};  // the driver's memfds for a run's report, stdout, stderr
  if (std::sscanf(g_server_spec, "%d,%d,%d,%d,%d,%d", &session_fd, &channel_fd, &run_fds[0], &run_fds[1], &run_fds[2],
                  &g_runs_per_worker) != 6)
    return;
  // The limits a run reads, read here once: every child and every run of a worker starts with
  // them in memory instead of opening /proc again.
  StackPool::guarded_limit();
  // Where standard input stands now (main may have read some of it, through stdio's buffer too):
  // every run starts from here, exactly as the server's own state left it.
  const off_t input_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
  void* shared = mmap(nullptr, sizeof(Channel), PROT_READ | PROT_WRITE, MAP_SHARED, channel_fd, 0);
  if (shared == MAP_FAILED) std::_Exit(2);
  close(channel_fd);  // the mapping stays; no worker sees the descriptor
  g_channel = static_cast<Channel*>(shared);
  Channel& c = *g_channel;
  c.reusable = 1;
  // Large blocks from the heap, not from mappings of their own: a worker then brings a run's
  // allocations back by setting the break back, without reading /proc/self/maps to find the
  // mappings malloc made (snapshot_plan.cpp, plan_unmapping). Workers that cannot come back do
  // the same, so every run of the session allocates alike.
  if (g_runs_per_worker > 1) mallopt(M_MMAP_MAX, 0);
  // Read once here, not in every run of every worker (the checks that name globals use them).
  executable_symbols();
  for (;;) {
    c.worker_runs = 0;
    const pid_t worker = spawn(session_fd, run_fds);
    if (worker == 0) {  // the worker
      serve_as_worker(input_at);
      return;
    }
    if (worker < 0) std::_Exit(2);
    c.worker_pid = worker;
    int status = 0;
    if (!await_worker(worker, session_fd, &status)) {  // the driver is done
      post(c, fork_protocol::kQuit);
      reap(worker, &status);
      std::_Exit(0);
    }
    c.worker_pid = 0;  // reaped: its pid may be another process's now
    // Ended during a run (exited, crashed, was killed): that is the run's end. Otherwise it
    // retired or died between runs, and the next worker takes any request waiting.
    if (c.state.load(std::memory_order_acquire) == fork_protocol::kRequest && c.taken.load(std::memory_order_acquire)) {
      c.status = status;
      post(c, fork_protocol::kDone);
    }
  }
}

namespace {

// LeakSanitizer checks a process at its exit, among the shared libraries' destructors, which a
// worker's run passes through before it is brought back: there the sanitizer's check is turned
// off (sanitizer_shadow.hpp), and the run is checked here instead, its leaks printed on its
// stderr and its status LeakSanitizer's, before the restore takes the run's blocks away. A check
// costs about 1.5 ms here, ten small runs, so it is made only where a leak can be: in a worker's
// first run (a leak already there at bsp_begin would be every run's), in every run once one run
// leaked, and in any run that ends with a block alive that it allocated. The one leak that escapes: a block
// allocated before bsp_begin whose every pointer a run overwrote, in a run that leaves none of
// its own blocks alive (docs/cli.md, "Workers of the fork server"). True when it checked.
bool check_leaks(int& exit_status) {
  if (g_keeps && g_keeps->leaks_checked && !g_keeps->leaks_seen && !blocks_alive_since_start()) return false;
  bool leaked = false;
  exit_status = exit_status_after_leak_check(exit_status, &leaked);
  std::fflush(stderr);
  if (!g_keeps) return true;
  g_keeps->leaks_checked = true;
  g_keeps->leaks_seen = g_keeps->leaks_seen || leaked;
  return true;
}

}  // namespace

void finish_served_run(int exit_status) {
  if (!g_reusable) return;
  // What exit() would still have written.
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
  // A worker that cannot come back ends as any process does (and the server posts how from
  // waitpid): exit goes on with whatever it has left, once the run is checked for leaks (the
  // sanitizer's own check at exit, turned off in a worker's runs, is behind it already).
  // A run that wrote files ends its worker: the next run needs a fresh view of them, which a
  // fresh worker makes (runtime/isolation/file_view.hpp).
  if (file_view_written()) {
    exit_leak_check_left_to_worker();  // the exit goes on, checked as its handler would have
    return;
  }
  // Checked before the restore is planned: LeakSanitizer's first check in a process maps what it
  // keeps, and made after the plan it crashed the restore (every worker died after its first run
  // once the sanitizer's own check at exit, which had always come first, was left to the worker).
  const int status = exit_status;
  const bool checked = check_leaks(exit_status);
  if (!ProcessSnapshot::prepare_restore()) {  // the exit goes on
    if (!checked) exit_leak_check_left_to_worker();
    else if (exit_status != status) std::_Exit(exit_status);  // it leaked: LeakSanitizer's status
    return;
  }
  if (g_keeps) g_keeps->streams_open = g_keeps->streams_open && streams_as_opened();
  Channel& c = *g_channel;
  c.status = (exit_status & 0xff) << 8;  // as waitpid reports an exit
  const bool retire = ++c.worker_runs >= g_runs_per_worker;
  post(c, fork_protocol::kDone);
  if (retire) std::_Exit(0);  // the server forks a fresh worker meanwhile
  ProcessSnapshot::restore();
}

bool delivers_reports() { return g_in_worker_run; }

bool deliver_report(std::string_view bytes) {
  if (!g_in_worker_run) return false;
  Channel& c = *g_channel;
  // Written again (a finding after bsp_end) and now too large: the file has it, not the page.
  if (bytes.size() > sizeof c.report) {
    c.report_bytes.store(-1, std::memory_order_relaxed);
    return false;
  }
  // Written again while the run goes on (the report so far, at each finding): a kill in the middle
  // of the copy leaves no report rather than a torn one.
  c.report_bytes.store(0, std::memory_order_release);
  std::memcpy(c.report, bytes.data(), bytes.size());
  c.report_bytes.store(static_cast<std::int32_t>(bytes.size()), std::memory_order_release);
  return true;
}

namespace {

// The last of the exit handlers (registered when the library loads, before the program's own):
// by then every handler exit() runs has run, and what is left is the C library's flush, which
// finish_served_run does.
void finish_at_exit(int status, void*) { finish_served_run(status); }

// Before main: the program never sees what the driver told its fork server through the
// environment (the dynamic loader has read LD_BIND_NOW by now). A program's main runs in the
// server, and its environment is the one it would have outside.
void take_server_environment() {
  const char* spec = std::getenv(fork_protocol::kEnvironment);
  if (!spec) return;
  if (std::strlen(spec) < sizeof g_server_spec) std::strcpy(g_server_spec, spec);
  unsetenv(fork_protocol::kEnvironment);  // the runs are ordinary runs
  if (std::getenv(fork_protocol::kBindNowEnvironment)) {
    unsetenv("LD_BIND_NOW");
    unsetenv(fork_protocol::kBindNowEnvironment);
  }
}

__attribute__((constructor)) void when_loaded() {
  take_server_environment();
  on_exit(&finish_at_exit, nullptr);
}

}  // namespace

}  // namespace bspcheck::rt
