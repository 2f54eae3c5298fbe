#include "tools/launch/temp_janitor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace bspcheck::cli {

namespace {

int g_to_janitor = -1;     // the driver's end of the pipe (close-on-exec: the runs hold none of it)
pid_t g_driver_pid = 0;    // a child forked without exec that exits says nothing for the driver
constexpr char kDone = 0;  // the driver ended normally: the janitor removes nothing

void write_all(const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = write(g_to_janitor, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// At a normal exit (return from main, exit()): the driver removed or kept its files itself.
void say_done() {
  if (g_to_janitor < 0 || getpid() != g_driver_pid) return;
  write_all(&kDone, 1);
  close(g_to_janitor);
  g_to_janitor = -1;
}

// The janitor: reads names (each ended by '\n') until the pipe closes; a kDone byte ends it at
// once. Its own session, so that the signals of the driver's process group (Ctrl-C, `timeout`)
// do not end it before the driver's end does.
[[noreturn]] void janitor(int from_driver) {
  setsid();
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) signal(sig, SIG_IGN);
  const int null = open("/dev/null", O_RDWR);
  for (int fd = 0; fd <= 2; ++fd)
    if (null >= 0) dup2(null, fd);  // holds none of the driver's pipes open (a caller reads them to their end)
  if (from_driver != 3) {
    dup2(from_driver, 3);
    close(from_driver);
    from_driver = 3;
  }
  close_range(4, ~0U, 0);
  std::vector<std::string> paths;
  std::string pending;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(from_driver, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == kDone) _exit(0);
      if (buf[i] != '\n') {
        pending += buf[i];
      } else {
        paths.push_back(pending);
        pending.clear();
      }
    }
  }
  std::error_code ignored;
  for (const std::string& path : paths) std::filesystem::remove_all(path, ignored);
  _exit(0);
}

}  // namespace

void start_temp_janitor() {
  if (g_to_janitor >= 0) return;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    close(fds[1]);
    janitor(fds[0]);
  }
  close(fds[0]);
  g_to_janitor = fds[1];
  g_driver_pid = getpid();
  std::atexit(say_done);
}

void watch_temporary(const std::string& path) {
  if (g_to_janitor < 0 || path.empty()) return;
  const std::string line = path + '\n';
  write_all(line.data(), line.size());
}

}  // namespace bspcheck::cli
