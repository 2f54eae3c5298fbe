#include "runtime/fork_server.hpp"

#include "runtime/fork_server_protocol.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace bspcheck::rt {

namespace {

bool redirect(int fd, const std::string& path) {
  int f = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (f < 0) return false;
  dup2(f, fd);
  close(f);
  return true;
}

}  // namespace

void serve_forks_if_requested() {
  const char* spec = std::getenv(fork_protocol::kEnvironment);
  if (!spec) return;
  int request_fd = -1, result_fd = -1;
  int run_fds[3] = {-1, -1, -1};  // the driver's memfds for a run's report, stdout, stderr
  if (std::sscanf(spec, "%d,%d,%d,%d,%d", &request_fd, &result_fd, &run_fds[0], &run_fds[1], &run_fds[2]) < 2)
    return;
  unsetenv(fork_protocol::kEnvironment);  // children are ordinary runs
  if (std::getenv(fork_protocol::kBindNowEnvironment)) {
    unsetenv("LD_BIND_NOW");
    unsetenv(fork_protocol::kBindNowEnvironment);
  }
  std::FILE* requests = fdopen(request_fd, "r");
  if (!requests) std::_Exit(2);
  // Where standard input stands now (main may have read some of it, through stdio's buffer too):
  // every child starts from here, exactly as the server's own state left it.
  const off_t input_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
  std::string line;
  for (;;) {
    line.clear();
    for (int c; (c = std::fgetc(requests)) != EOF && c != '\n';) line += static_cast<char>(c);
    if (line.empty() && std::feof(requests)) std::_Exit(0);
    const std::optional<fork_protocol::Request> request = fork_protocol::decode(line);
    if (!request) std::_Exit(2);
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t child = fork();
    if (child == 0) {
      std::fclose(requests);
      close(result_fd);
      if (!redirect(STDOUT_FILENO, request->out) || !redirect(STDERR_FILENO, request->err)) std::_Exit(127);
      for (int fd : run_fds)
        if (fd >= 0) close(fd);
      if (input_at >= 0) lseek(STDIN_FILENO, input_at, SEEK_SET);
      setenv("BSPCHECK_OPTIONS", request->options.c_str(), 1);
      setenv("BSPCHECK_REPORT", request->report.c_str(), 1);
      setenv("BSPCHECK_REPRO", request->repro.c_str(), 1);
      return;
    }
    dprintf(result_fd, "%s%d\n", fork_protocol::kPidReply, static_cast<int>(child));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    dprintf(result_fd, "%s%d\n", fork_protocol::kStatusReply, status);
  }
}

}  // namespace bspcheck::rt
