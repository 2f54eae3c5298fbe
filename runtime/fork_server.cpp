#include "runtime/fork_server.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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

#include "runtime/fiber_stack.hpp"
#include "runtime/fork_server_protocol.hpp"
#include "runtime/process_snapshot.hpp"

namespace bspcheck::rt {

namespace {

// A worker saves at most this much memory to come back to bsp_begin; a program with more writable
// memory at bsp_begin gets a fresh child per run (a fork's cost grows more slowly with the size).
constexpr std::size_t kSnapshotLimit = 16u << 20;

bool redirect(int fd, const char* path) {
  int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (f < 0) return false;
  dup2(f, fd);
  close(f);
  return true;
}

// Lines from a descriptor into a fixed buffer. The server and its workers allocate nothing while
// they serve: every run then starts from the same heap, whether it is forked for itself or made
// by a worker, and a program's allocations land where they would in any other run.
class LineReader {
 public:
  LineReader(int fd, char* buf, std::size_t size) : fd_(fd), buf_(buf), size_(size) {}
  // The next line, '\0'-terminated in place of its '\n'; nullptr at the end of the stream, on an
  // error, or for a line longer than the buffer.
  char* next() {
    if (consumed_ > 0) {  // drop the line returned last
      std::memmove(buf_, buf_ + consumed_, held_ - consumed_);
      held_ -= consumed_;
      consumed_ = 0;
    }
    for (;;) {
      if (char* nl = static_cast<char*>(std::memchr(buf_, '\n', held_))) {
        *nl = '\0';
        consumed_ = static_cast<std::size_t>(nl - buf_) + 1;
        return buf_;
      }
      if (held_ == size_) return nullptr;
      const ssize_t n = read(fd_, buf_ + held_, size_ - held_);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return nullptr;
      held_ += static_cast<std::size_t>(n);
    }
  }

 private:
  int fd_;
  char* buf_;
  std::size_t size_;
  std::size_t held_ = 0, consumed_ = 0;
};

// An answer to the driver. Not dprintf, which allocates a buffer and frees it: the next fork
// would then start from another heap than the one before.
void answer(int fd, const char* prefix, long value) {
  char line[64];
  const int n = std::snprintf(line, sizeof line, "%s%ld\n", prefix, value);
  for (int at = 0; at < n;) {
    const ssize_t w = write(fd, line + at, static_cast<std::size_t>(n - at));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    at += static_cast<int>(w);
  }
}

void reap(pid_t pid, int* status) {
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
}

// The start of a run in the process that makes it: its output files, its standard input from
// where the server's stood, its options.
bool begin_run(const fork_protocol::RequestFields& request, off_t input_at) {
  if (!redirect(STDOUT_FILENO, request.out) || !redirect(STDERR_FILENO, request.err)) return false;
  if (input_at >= 0) lseek(STDIN_FILENO, input_at, SEEK_SET);
  setenv("BSPCHECK_OPTIONS", request.options, 1);
  setenv("BSPCHECK_REPORT", request.report, 1);
  setenv("BSPCHECK_REPRO", request.repro, 1);
  return true;
}

// --- the mailbox between the server and its worker ----------------------------------------------
// A shared anonymous page, not a pipe or socket: a descriptor would be one more thing the
// program's runs see in a worker and not in a forked run (a program listing its descriptors, or
// the sockets it has, would print something else). The two sides wait on its state with futexes.

enum MailState : std::uint32_t {
  kIdle,       // the worker waits for a request
  kRequest,    // the server put a request
  kRunning,    // the worker took it and runs it
  kDone,       // the run ended and the worker is back at bsp_begin
  kQuit,       // the server asks the worker to exit
};

// The buffers live here too, not in the program's data: a worker saves and restores that data
// for every run, and these would be a third of it.
struct Mailbox {
  std::atomic<std::uint32_t> state;
  std::int32_t status;    // kDone: the run's waitpid-style status
  std::int32_t reusable;  // kRunning: 1 when the worker will come back after the run
  char request[1 << 16];  // kRequest: the request line
  char decoded[1 << 16];  // the worker's copy, split in place
  char received[1 << 16]; // the server's reader of the driver's requests
};

Mailbox* g_mailbox = nullptr;
bool g_is_worker = false;  // in the saved memory: a worker keeps knowing it is one

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t seen, const timespec* timeout) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, seen, timeout, nullptr, 0);
}

void futex_wake(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

void post(Mailbox& m, MailState s) {
  m.state.store(s, std::memory_order_release);
  futex_wake(m.state);
}

// --- the worker: a child that runs one request after another, back at bsp_begin each time ------

// In the worker: returns into bsp_begin with the next request's run set up; exits when the
// server asks it to.
void serve_as_worker(off_t input_at) {
  g_is_worker = true;
  // Every run after the first comes back here.
  const bool reusable = ProcessSnapshot::take(kSnapshotLimit) != ProcessSnapshot::Taken::unavailable;
  Mailbox& m = *g_mailbox;
  for (std::uint32_t s; (s = m.state.load(std::memory_order_acquire)) != kRequest;) {
    if (s == kQuit) std::_Exit(0);
    futex_wait(m.state, s, nullptr);
  }
  fork_protocol::RequestFields request{};
  std::memcpy(m.decoded, m.request, sizeof m.decoded);  // decoded in place, as the server decodes its copy
  m.reusable = reusable;
  if (!fork_protocol::decode_in_place(m.decoded, request) || !begin_run(request, input_at)) std::_Exit(127);
  // Taken: a store, no wake-up; the server waits for the end of the run, not for this.
  m.state.store(kRunning, std::memory_order_release);
}

// --- the server's side of a worker --------------------------------------------------------------

struct Worker {
  pid_t pid = -1;
  int runs = 0;
};

// Forks a worker; returns true in the worker itself (which has become one), false in the server.
bool spawn(Worker& w, int request_fd, int result_fd, const int run_fds[3], off_t input_at) {
  g_mailbox->state.store(kIdle);
  const pid_t server = getpid();
  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a worker never outlives its server
    if (getppid() != server) std::_Exit(0);
    close(request_fd);
    close(result_fd);
    for (int i = 0; i < 3; ++i)
      if (run_fds[i] >= 0) close(run_fds[i]);
    serve_as_worker(input_at);
    return true;
  }
  if (pid < 0) return false;
  w = Worker{pid, 0};
  return false;
}

// Waits until the worker has made the run it was asked for (kDone); false when it ended as a
// process instead (its waitpid status in *status), and then *taken says whether it had taken
// the request (a worker killed between runs had not).
bool await_done(const Worker& w, int* status, bool* taken) {
  const timespec tick{0, 20 * 1000 * 1000};  // how soon a worker's death is noticed
  for (;;) {
    std::uint32_t s = g_mailbox->state.load(std::memory_order_acquire);
    if (s == kDone) return true;
    futex_wait(g_mailbox->state, s, &tick);
    s = g_mailbox->state.load(std::memory_order_acquire);
    if (s == kDone) return true;
    if (waitpid(w.pid, status, WNOHANG) == w.pid) {
      *taken = g_mailbox->state.load(std::memory_order_acquire) != kRequest;
      return false;
    }
  }
}

void retire(Worker& w) {
  post(*g_mailbox, kQuit);
  int status;
  reap(w.pid, &status);
  w = Worker{};
}

}  // namespace

void serve_forks_if_requested() {
  const char* spec = std::getenv(fork_protocol::kEnvironment);
  if (!spec) return;
  int request_fd = -1, result_fd = -1, runs_per_worker = 1;
  int run_fds[3] = {-1, -1, -1};  // the driver's memfds for a run's report, stdout, stderr
  if (std::sscanf(spec, "%d,%d,%d,%d,%d,%d", &request_fd, &result_fd, &run_fds[0], &run_fds[1], &run_fds[2],
                  &runs_per_worker) < 2)
    return;
  unsetenv(fork_protocol::kEnvironment);  // children are ordinary runs
  // The limits a run reads, read here once: every child and every run of a worker starts with
  // them in memory instead of opening /proc again.
  StackPool::guarded_limit();
  if (std::getenv(fork_protocol::kBindNowEnvironment)) {
    unsetenv("LD_BIND_NOW");
    unsetenv(fork_protocol::kBindNowEnvironment);
  }
  // Where standard input stands now (main may have read some of it, through stdio's buffer too):
  // every run starts from here, exactly as the server's own state left it.
  const off_t input_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
  void* shared = mmap(nullptr, sizeof(Mailbox), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) std::_Exit(2);
  g_mailbox = new (shared) Mailbox{};
  LineReader requests(request_fd, g_mailbox->received, sizeof g_mailbox->received);
  Worker worker;
  bool reuse = runs_per_worker > 1;
  // Large blocks from the heap, not from mappings of their own: a worker then brings a run's
  // allocations back by setting the break back, without reading /proc/self/maps to find the
  // mappings malloc made (process_snapshot.cpp). Forked runs do the same, so every run of the
  // session allocates alike.
  if (reuse) mallopt(M_MMAP_MAX, 0);
  for (;;) {
    char* line = requests.next();
    if (!line) {  // the driver is done
      if (worker.pid > 0) retire(worker);
      std::_Exit(0);
    }
    if (reuse) {  // the line as received, for the worker
      if (worker.pid < 0) {
        if (spawn(worker, request_fd, result_fd, run_fds, input_at)) return;  // the worker
        if (worker.pid < 0) std::_Exit(2);
      }
      std::snprintf(g_mailbox->request, sizeof g_mailbox->request, "%s", line);
    }
    fork_protocol::RequestFields request{};
    if (!fork_protocol::decode_in_place(line, request)) std::_Exit(2);
    int status = 0;
    if (reuse) {
      post(*g_mailbox, kRequest);
      // The driver learns a worker's pid once, with its first run (fork_server_protocol.hpp).
      if (worker.runs == 0) answer(result_fd, fork_protocol::kPidReply, worker.pid);
      bool taken = true;
      // came_back false: it ended as a process, in the run (exited, crashed, was killed) or
      // before it (not taken: killed between runs, which ends the server).
      const bool came_back = await_done(worker, &status, &taken);
      if (!came_back && !taken) std::_Exit(2);
      // A worker that could not save bsp_begin (too much memory, threads, a sanitizer's shadow)
      // made this one run and ended as a forked run does: fork per run from now on.
      if (!g_mailbox->reusable) reuse = false;
      if (came_back) {
        status = g_mailbox->status;
        g_mailbox->state.store(kIdle, std::memory_order_release);
        if (++worker.runs >= runs_per_worker || !reuse) retire(worker);
      } else {
        worker = Worker{};
      }
      answer(result_fd, fork_protocol::kStatusReply, status);
      continue;
    }
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t child = fork();
    if (child == 0) {
      close(request_fd);
      close(result_fd);
      for (int fd : run_fds)
        if (fd >= 0) close(fd);
      if (!begin_run(request, input_at)) std::_Exit(127);
      return;
    }
    answer(result_fd, fork_protocol::kPidReply, child);
    reap(child, &status);
    answer(result_fd, fork_protocol::kStatusReply, status);
  }
}

void finish_served_run(int exit_status) {
  if (!g_is_worker) return;
  // What exit() would still have written.
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
  // A worker that cannot come back ends as any process does (and the server learns how from
  // waitpid); exit goes on with whatever it has left, a sanitizer's leak check among it.
  if (!ProcessSnapshot::prepare_restore()) return;
  g_mailbox->status = (exit_status & 0xff) << 8;  // as waitpid reports an exit
  post(*g_mailbox, kDone);
  ProcessSnapshot::restore();
}

namespace {

// The last of the exit handlers (registered when the library loads, before the program's own):
// by then every handler exit() runs has run, and what is left is the C library's flush, which
// finish_served_run does.
void finish_at_exit(int status, void*) { finish_served_run(status); }

__attribute__((constructor)) void register_finish_at_exit() { on_exit(&finish_at_exit, nullptr); }

}  // namespace

}  // namespace bspcheck::rt
