#include "tools/fork_server_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tools/reproduce_command.hpp"
#include "tools/temp_files.hpp"

namespace bspcheck::cli {

namespace {

// How many runs a forked worker of the server makes in turn (fork_server_protocol.hpp);
// BSPCHECK_RUNS_PER_WORKER=1 gives every run a fresh child, as before workers existed (for
// comparisons and benchmarks).
int runs_per_worker() {
  if (const char* v = std::getenv("BSPCHECK_RUNS_PER_WORKER")) {
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && n >= 1 && n <= 1000000) return static_cast<int>(n);
  }
  return rt::fork_protocol::kRunsPerWorker;
}

}  // namespace

ForkServer::~ForkServer() {
  if (req_ >= 0) close(req_);
  if (res_ >= 0) close(res_);
  for (int fd : {report_fd_, out_fd_, err_fd_})
    if (fd >= 0) close(fd);
  if (pid_ > 0) {
    int status;
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      // The server exits when its request pipe closes; give it a moment, then insist.
      for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
      }
    }
  }
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

bool ForkServer::start(const RunConfig& c, const std::string& path, int p, StdinFeed& in) {
  const std::lock_guard<std::mutex> launching(launch_mutex());
  std::string dir = temp_template("server");
  if (!mkdtemp(dir.data())) return false;
  dir_ = dir;
  // Close-on-exec everywhere: no other child (a plain run, another server) inherits the channel.
  int req[2], res[2];
  if (pipe2(req, O_CLOEXEC) != 0) return false;
  if (pipe2(res, O_CLOEXEC) != 0) {
    close(req[0]);
    close(req[1]);
    return false;
  }
  // The server's ends, moved out of the program's way (the lowest numbers are the ones a
  // program gets from open); made inheritable in the child only. Everything the child needs
  // is prepared here, before fork (see set_shared_run_environment).
  const int request_fd = fcntl(req[0], F_DUPFD_CLOEXEC, kChannelFdFloor);
  const int result_fd = fcntl(res[1], F_DUPFD_CLOEXEC, kChannelFdFloor);
  for (int* fd : {&report_fd_, &out_fd_, &err_fd_}) {
    const int made = memfd_create("bsp-check-run", MFD_CLOEXEC);
    *fd = made >= 0 ? fcntl(made, F_DUPFD_CLOEXEC, kChannelFdFloor) : -1;
    if (made >= 0) close(made);
  }
  const int out_fd = open((dir_ + "/server.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd = open((dir_ + "/server.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const auto close_prepared = [&] {
    for (int fd : {req[0], res[1], request_fd, result_fd, out_fd, err_fd})
      if (fd >= 0) close(fd);
  };
  if (request_fd < 0 || result_fd < 0 || report_fd_ < 0 || out_fd_ < 0 || err_fd_ < 0) {
    close_prepared();
    close(req[1]);
    close(res[0]);
    return false;
  }
  set_shared_run_environment(c);
  const std::vector<char*> argv = program_argv(c);
  setenv(rt::fork_protocol::kEnvironment,
         (std::to_string(request_fd) + "," + std::to_string(result_fd) + "," + std::to_string(report_fd_) + "," +
          std::to_string(out_fd_) + "," + std::to_string(err_fd_) + "," + std::to_string(runs_per_worker()))
             .c_str(),
         1);
  setenv("BSPCHECK_OPTIONS", runtime_options(c, p, c.seed).c_str(), 1);
  setenv("BSPCHECK_REPORT", (dir_ + "/server.json").c_str(), 1);
  // Every symbol bound once, in the server, instead of lazily in every forked run (each run
  // repeated the binding of every function it called). The server takes it out of the
  // environment again before the program's code can see it (runtime/fork_server.cpp).
  const bool bind_now_was_set = std::getenv("LD_BIND_NOW") != nullptr;
  if (!bind_now_was_set) setenv("LD_BIND_NOW", "1", 1), setenv(rt::fork_protocol::kBindNowEnvironment, "1", 1);
  const bool own_group = own_group_for(in);
  const std::unique_ptr<StdinFeed::Run> input = in.start_run();  // shareable: a file or a terminal
  pid_ = fork();
  if (pid_ == 0) {
    for (int fd : {request_fd, result_fd, report_fd_, out_fd_, err_fd_}) fcntl(fd, F_SETFD, 0);
    exec_program(path.c_str(), argv.data(), input->fd(), out_fd, err_fd, own_group);
  }
  unsetenv(rt::fork_protocol::kEnvironment);  // a plain run started later must not take itself for a server
  if (!bind_now_was_set) unsetenv("LD_BIND_NOW"), unsetenv(rt::fork_protocol::kBindNowEnvironment);
  close_prepared();
  if (pid_ < 0) {
    close(req[1]);
    close(res[0]);
    return false;
  }
  if (own_group) setpgid(pid_, pid_);
  watched_.emplace(pid_, own_group);
  req_ = req[1];
  res_ = res[0];
  return true;
}

bool ForkServer::run(const RunConfig& c, int p, std::uint64_t seed, RunOutcome& r) {
  r.p = p;
  r.seed = seed;
  // Through the server's descriptors (the child closes its own copies; runtime/fork_server.cpp).
  const auto proc_path = [&](int fd) { return "/proc/" + std::to_string(pid_) + "/fd/" + std::to_string(fd); };
  const std::string report = proc_path(report_fd_), out = proc_path(out_fd_), err = proc_path(err_fd_);
  for (int fd : {report_fd_, out_fd_, err_fd_}) {  // empty, for this run (the child reopens them)
    if (ftruncate(fd, 0) != 0) return false;
  }
  const std::optional<std::string> request =
      rt::fork_protocol::encode({runtime_options(c, p, seed), report, out, err, repro_command(c, p, seed)});
  if (!request) return false;  // a field with a tab or newline cannot be sent: run it the usual way
  const auto start = std::chrono::steady_clock::now();
  if (!write_request(*request)) return false;
  // "pid N" when another child makes this run than the last (a worker makes many), then "status S".
  const double limit = c.options.timeout_seconds > 0 ? c.options.timeout_seconds + 5 : -1;
  std::string line;
  for (;;) {
    if (!read_line(line, limit)) {
      if (limit < 0 || run_child_ <= 0) return false;
      kill(run_child_, SIGKILL);  // past its --timeout: the server reports the kill
      r.timed_out = true;
      if (!read_line(line, 10)) return false;
    }
    const std::optional<long> child_pid = rt::fork_protocol::reply_value(line.c_str(), rt::fork_protocol::kPidReply);
    if (!child_pid) break;
    if (*child_pid <= 0) return false;
    run_child_ = static_cast<pid_t>(*child_pid);
  }
  const std::optional<long> reply = rt::fork_protocol::reply_value(line.c_str(), rt::fork_protocol::kStatusReply);
  if (!reply) return false;
  const int status = static_cast<int>(*reply);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_status = 128 + WTERMSIG(status);
  finish_outcome_from_text(r, c, read_all(report_fd_));
  if (!prelude_read_) {  // what main printed before bsp_begin, once
    prelude_read_ = true;
    prelude_ = slurp(dir_ + "/server.out");
    prelude_err_ = slurp(dir_ + "/server.err");
  }
  r.out = prelude_ + read_all(out_fd_);
  r.err = prelude_err_ + read_all(err_fd_);
  return true;
}

std::string ForkServer::read_all(int fd) {
  std::string text;
  char buf[65536];
  for (off_t at = 0;;) {
    const ssize_t n = pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
}

bool ForkServer::write_request(const std::string& request) {
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  const bool written = write(req_, request.data(), request.size()) == static_cast<ssize_t>(request.size());
  if (!written) {
    const timespec no_wait{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return written;
}

std::string ForkServer::slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool ForkServer::read_line(std::string& line, double timeout) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout < 0 ? 0 : timeout);
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    int wait_ms = -1;
    if (timeout >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      wait_ms = static_cast<int>(left.count());
    }
    pollfd pfd{res_, POLLIN, 0};
    const int ready = poll(&pfd, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return false;
    char buf[256];
    const ssize_t n = read(res_, buf, sizeof buf);
    if (n <= 0) return false;
    buffer_.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace bspcheck::cli
