#include "runtime/isolation/file_byte_watch.hpp"

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "runtime/base/runtime_file.hpp"
#include "runtime/isolation/file_view.hpp"

namespace bspcheck::rt {

bool g_file_watch_on = false;

namespace {

// Fixed storage, no allocation: the program's heap stays as in a run that does not watch, so
// that the run is the one the session made (a program may depend on its heap's addresses).
char g_path[4096];
std::uint64_t g_offset = 0;
int g_state = 0;
bool g_answer = false;     // locating: print the answer at the end
int g_expected = 0;        // with g_expecting: the reference run's state of the byte
bool g_expecting = false;  // a kept trace's expectation
FileByteChange g_last;
FileByteChange g_before_last;        // the change g_last followed
constexpr int kNoState = -100;       // no byte state (kFileEndsBefore and kFileAbsent are -1, -2)
int g_state_before_last = kNoState;  // the byte's state before g_last
RunningCaller g_caller = nullptr;
int g_inotify = -1;            // watches the file's directory; -1 when not
const char* g_name = nullptr;  // the file's name in it (within g_path)
struct sigaction g_previous_action;

// The signal the kernel sends when the directory's inotify descriptor has events: a real-time
// one, which a program is unlikely to use for itself (SIGIO might be).
int watch_signal() { return SIGRTMIN + 3; }

int byte_state() {
  const int fd = open(g_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return kFileAbsent;
  unsigned char b = 0;
  const ssize_t n = pread(fd, &b, 1, static_cast<off_t>(g_offset));
  close(fd);
  return n == 1 ? b : kFileEndsBefore;
}

bool same_place(const FileByteChange& c, int pid, int superstep, const char* call, int line) {
  return c.seen && c.pid == pid && c.superstep == superstep && c.line == line &&
         std::strcmp(c.call, call ? call : "bsp_begin") == 0;
}

// A change of the byte, charged to the given place. A place that puts the byte back as it found
// it (a file truncated with O_TRUNC, then written again the same) has not changed it: the earlier
// change stands, as it would between two of its BSPlib calls.
void look(int pid, int superstep, const char* call, const char* file, int line) {
  const int now = byte_state();
  if (now == g_state) return;
  if (same_place(g_last, pid, superstep, call, line) && now == g_state_before_last) {
    g_last = g_before_last;
    g_state = now;
    g_state_before_last = kNoState;
    return;
  }
  g_before_last = g_last;
  g_state_before_last = g_state;
  g_state = now;
  g_last.seen = true;
  g_last.pid = pid;
  g_last.superstep = superstep;
  g_last.line = file ? line : 0;
  std::snprintf(g_last.call, sizeof g_last.call, "%s", call ? call : "bsp_begin");
  std::snprintf(g_last.file, sizeof g_last.file, "%s", file ? file : "");
}

// Whether the events read from the directory name the watched file (or the directory itself).
bool names_the_file(const char* events, ssize_t n) {
  bool named = false;
  for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
    const auto* e = reinterpret_cast<const inotify_event*>(events + at);
    if (e->len == 0 || std::strcmp(e->name, g_name) == 0 || (e->mask & IN_Q_OVERFLOW)) named = true;
    at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
  }
  return named;
}

// Runs as the writing system call returns, in the writing process (async-signal-safe: read,
// open, pread, close and snprintf of integers and strings).
void on_file_event(int) {
  const int saved = errno;
  alignas(inotify_event) char events[4096];
  bool named = false;
  for (ssize_t n; g_inotify >= 0 && (n = read(g_inotify, events, sizeof events)) > 0;)
    named = names_the_file(events, n) || named;
  FileWatchCaller who;
  if (named && g_file_watch_on && g_caller && g_caller(&who))
    look(who.pid, who.superstep, who.call, who.file, who.line);
  errno = saved;
}

// The kernel's fcntl, not the program's: that one refuses the runtime's own descriptors
// (runtime/isolation/runtime_fds.cpp). The pid is the kernel's too (not --stable-pid's).
bool signal_on_events(int fd) {
  const auto self = static_cast<pid_t>(syscall(SYS_getpid));
  return syscall(SYS_fcntl, fd, F_SETSIG, watch_signal()) == 0 && syscall(SYS_fcntl, fd, F_SETOWN, self) == 0 &&
         syscall(SYS_fcntl, fd, F_SETFL, O_ASYNC | O_NONBLOCK) == 0;
}

// Asks the kernel for a signal whenever the file's directory changes. Without it (no inotify,
// a path without a directory) the run still sees the byte's end, charged to the end.
void watch_directory() {
  char* slash = std::strrchr(g_path, '/');
  char dir[sizeof g_path];
  if (slash) std::snprintf(dir, sizeof dir, "%.*s", static_cast<int>(slash - g_path), g_path);
  else std::snprintf(dir, sizeof dir, ".");
  if (slash && slash == g_path) std::snprintf(dir, sizeof dir, "/");
  g_name = slash ? slash + 1 : g_path;
  // Out of the program's way, as the runtime's other descriptors (runtime/base/runtime_file.hpp).
  const int fd = out_of_the_way(inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (fd < 0) return;
  if (inotify_add_watch(
          fd, dir, IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF) <
      0) {
    close_runtime_fd(fd);
    return;
  }
  struct sigaction sa {};
  sa.sa_handler = &on_file_event;
  sa.sa_flags = SA_RESTART | SA_ONSTACK;  // the crash handlers' stack, not a process's small one
  sigemptyset(&sa.sa_mask);
  sigaction(watch_signal(), &sa, &g_previous_action);
  g_inotify = fd;
  if (!signal_on_events(fd)) {
    g_inotify = -1;
    close_runtime_fd(fd);
    sigaction(watch_signal(), &g_previous_action, nullptr);
  }
}

void stop_watching_directory() {
  if (g_inotify < 0) return;
  const int fd = g_inotify;
  syscall(SYS_fcntl, fd, F_SETFL, O_NONBLOCK);  // no more signals
  g_inotify = -1;
  close_runtime_fd(fd);
  sigaction(watch_signal(), &g_previous_action, nullptr);
}

void start(std::uint64_t offset) {
  g_last = FileByteChange{};
  g_before_last = FileByteChange{};
  g_state_before_last = kNoState;
  g_offset = offset;
  g_state = byte_state();
  g_file_watch_on = true;
  watch_directory();
}

}  // namespace

void start_file_watch(const char* path, std::uint64_t offset) {
  if (std::snprintf(g_path, sizeof g_path, "%s", path) >= static_cast<int>(sizeof g_path)) return;
  g_answer = true;
  start(offset);
}

void start_file_expectation(const char* kept_name, std::uint64_t offset, int state) {
  // The kept name's root (cwd, tmp, tmpdir) as this run sees it: its view's roots, else the
  // directories themselves.
  const char* slash = std::strchr(kept_name, '/');
  if (!slash) return;
  const std::string_view root(kept_name, static_cast<std::size_t>(slash - kept_name));
  const char* root_path = nullptr;
  FileViewRoot roots[3];
  const int n = file_view_roots(roots, 3);
  for (int i = 0; i < n; ++i)
    if (root == roots[i].name) root_path = roots[i].path;
  char cwd[4096];
  if (!root_path && root == "cwd") root_path = getcwd(cwd, sizeof cwd);
  if (!root_path && root == "tmp") root_path = "/tmp";
  if (!root_path && root == "tmpdir") root_path = std::getenv("TMPDIR");
  if (!root_path || std::snprintf(g_path, sizeof g_path, "%s%s", root_path, slash) >= static_cast<int>(sizeof g_path))
    return;
  g_expecting = true;
  g_expected = state;
  start(offset);
}

void set_file_watch_caller(RunningCaller caller) { g_caller = caller; }

bool finish_file_watch(int pid, int superstep, const char* call, const char* file, int line,
                       const FileByteChange** last, int* state) {
  if (!g_file_watch_on) return false;
  // The last writes (the C library's buffers, a shared mapping's) are charged to the caller's
  // place: no signal may charge them to a process that no longer runs.
  stop_watching_directory();
  g_file_watch_on = false;
  std::fflush(nullptr);
  look(pid, superstep, call, file, line);
  if (g_answer) {
    if (g_last.seen)
      std::fprintf(stderr, "%schanged %d %d %d %s %s\n", kFileWatchAnswer, g_last.pid, g_last.superstep, g_last.line,
                   g_last.call, g_last.file[0] ? g_last.file : "-");
    else std::fprintf(stderr, "%sunchanged\n", kFileWatchAnswer);
    std::fflush(stderr);
  }
  *last = &g_last;
  *state = g_state;
  return g_expecting && g_state != g_expected;
}

}  // namespace bspcheck::rt
