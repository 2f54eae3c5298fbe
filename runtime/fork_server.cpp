#include "runtime/fork_server.hpp"

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

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return fields;
}

bool redirect(int fd, const std::string& path) {
  int f = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (f < 0) return false;
  dup2(f, fd);
  close(f);
  return true;
}

}  // namespace

void serve_forks_if_requested() {
  const char* spec = std::getenv("BSPCHECK_FORKSERVER");
  if (!spec) return;
  int request_fd = -1, result_fd = -1;
  if (std::sscanf(spec, "%d,%d", &request_fd, &result_fd) != 2) return;
  unsetenv("BSPCHECK_FORKSERVER");  // children are ordinary runs
  std::FILE* requests = fdopen(request_fd, "r");
  if (!requests) std::_Exit(2);
  // Where standard input stands now (main may have read some of it, through stdio's buffer too):
  // every child starts from here, exactly as the server's own state left it.
  const off_t input_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
  // A request: BSPCHECK_OPTIONS, report file, stdout file, stderr file, reproduce command.
  std::string line;
  for (;;) {
    line.clear();
    for (int c; (c = std::fgetc(requests)) != EOF && c != '\n';) line += static_cast<char>(c);
    if (line.empty() && std::feof(requests)) std::_Exit(0);
    const std::vector<std::string> f = split_tabs(line);
    if (f.size() != 5) std::_Exit(2);
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t child = fork();
    if (child == 0) {
      std::fclose(requests);
      close(result_fd);
      if (!redirect(STDOUT_FILENO, f[2]) || !redirect(STDERR_FILENO, f[3])) std::_Exit(127);
      if (input_at >= 0) lseek(STDIN_FILENO, input_at, SEEK_SET);
      setenv("BSPCHECK_OPTIONS", f[0].c_str(), 1);
      setenv("BSPCHECK_REPORT", f[1].c_str(), 1);
      setenv("BSPCHECK_REPRO", f[4].c_str(), 1);
      return;
    }
    dprintf(result_fd, "pid %d\n", static_cast<int>(child));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    dprintf(result_fd, "status %d\n", status);
  }
}

}  // namespace bspcheck::rt
