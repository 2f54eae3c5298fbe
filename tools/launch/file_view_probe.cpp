#include "tools/launch/file_view_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "runtime/isolation/file_view.hpp"
#include "tools/launch/child_environment.hpp"

namespace bspcheck::cli {

std::string file_view_refusal_of(const std::string& program) {
  ChildEnvironment env;
  env.set(rt::kFileViewEnvironment, rt::kFileViewProbe);
  char* const* envp = env.envp();  // built before fork: the child allocates nothing
  char* const argv[] = {const_cast<char*>(program.c_str()), nullptr};
  int answer[2];
  if (pipe2(answer, O_CLOEXEC) != 0) return "";
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(answer[1], STDOUT_FILENO);
    if (null >= 0) {
      dup2(null, STDIN_FILENO);
      dup2(null, STDERR_FILENO);
    }
    execve(program.c_str(), argv, envp);
    _exit(127);
  }
  close(answer[1]);
  if (null >= 0) close(null);
  std::string text;
  if (pid > 0) {
    char buf[512];
    for (pollfd p{answer[0], POLLIN, 0}; text.size() < 4096;) {
      const int ready = poll(&p, 1, 10000);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {  // no answer in time: not a refusal we know of
        kill(pid, SIGKILL);
        text.clear();
        break;
      }
      const ssize_t n = read(answer[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) text.clear();
  }
  close(answer[0]);
  // Only the runtime's line counts (a runtime too old to know the probe would run the program).
  const std::string tag = rt::kFileViewProbeAnswer;
  if (text.compare(0, tag.size(), tag) != 0) return "";
  text.erase(0, tag.size());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text == "private" ? std::string() : text;
}

}  // namespace bspcheck::cli
