#include "tools/launch/fork_server_client.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <thread>

#include "tools/cli/reproduce_command.hpp"

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
  if (session_ >= 0) close(session_);
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
  if (channel_) munmap(channel_, sizeof *channel_);
  for (int fd : {prelude_out_fd_, prelude_err_fd_})
    if (fd >= 0) close(fd);
}

bool ForkServer::start(const RunConfig& c, const std::string& path, int p, StdinFeed& in) {
  const std::lock_guard<std::mutex> launching(launch_mutex());
  // Close-on-exec everywhere: no other child (a plain run, another server) inherits the channel.
  int session[2];
  if (pipe2(session, O_CLOEXEC) != 0) return false;
  // The server's ends, moved out of the program's way (the lowest numbers are the ones a
  // program gets from open); made inheritable in the child only. Everything the child needs
  // is prepared here, before fork (see program_argv).
  const int session_fd = fcntl(session[0], F_DUPFD_CLOEXEC, kChannelFdFloor);
  int channel_fd = -1;
  if (const int made = memfd_create("bsp-check-channel", MFD_CLOEXEC); made >= 0) {
    if (ftruncate(made, sizeof(rt::fork_protocol::Channel)) == 0) {
      void* m = mmap(nullptr, sizeof(rt::fork_protocol::Channel), PROT_READ | PROT_WRITE, MAP_SHARED, made, 0);
      if (m != MAP_FAILED) channel_ = static_cast<rt::fork_protocol::Channel*>(m);  // zeros: kIdle
    }
    channel_fd = fcntl(made, F_DUPFD_CLOEXEC, kChannelFdFloor);
    close(made);
  }
  for (int* fd : {&report_fd_, &out_fd_, &err_fd_}) {
    const int made = memfd_create("bsp-check-run", MFD_CLOEXEC);
    *fd = made >= 0 ? fcntl(made, F_DUPFD_CLOEXEC, kChannelFdFloor) : -1;
    if (made >= 0) close(made);
  }
  // The server's own stdout and stderr (what main prints before bsp_begin): memfds too, so that
  // the session creates no file or folder that a driver killed by SIGKILL would leave behind.
  prelude_out_fd_ = memfd_create("bsp-check-server-stdout", MFD_CLOEXEC);
  prelude_err_fd_ = memfd_create("bsp-check-server-stderr", MFD_CLOEXEC);
  const auto close_prepared = [&] {
    for (int fd : {session[0], session_fd, channel_fd})
      if (fd >= 0) close(fd);
  };
  if (session_fd < 0 || !channel_ || channel_fd < 0 || report_fd_ < 0 || out_fd_ < 0 || err_fd_ < 0 ||
      prelude_out_fd_ < 0 || prelude_err_fd_ < 0) {
    close_prepared();
    close(session[1]);
    return false;
  }
  ChildEnvironment env = run_environment(c);
  env.set(rt::fork_protocol::kEnvironment, std::to_string(session_fd) + "," + std::to_string(channel_fd) + "," +
                                               std::to_string(report_fd_) + "," + std::to_string(out_fd_) + "," +
                                               std::to_string(err_fd_) + "," + std::to_string(runs_per_worker()));
  env.set("BSPCHECK_OPTIONS", runtime_options(c, p, c.seed));
  // The server's own report is never read: each run's report comes through its request, and a
  // server that ends before serving (a program that exits before bsp_begin) is run again the
  // usual way, whose report is read.
  env.set("BSPCHECK_REPORT", "/dev/null");
  // Every symbol bound once, in the server, instead of lazily in every forked run (each run
  // repeated the binding of every function it called). The server takes it out of the
  // environment again before the program's code can see it (runtime/isolation/fork_server.cpp).
  if (!env.has("LD_BIND_NOW")) {
    env.set("LD_BIND_NOW", "1");
    env.set(rt::fork_protocol::kBindNowEnvironment, "1");
  }
  char* const* envp = env.envp();
  const std::vector<char*> argv = program_argv(c);
  const bool own_group = own_group_for(in);
  const std::unique_ptr<StdinFeed::Run> input = in.start_run();  // shareable: a file or a terminal
  const pid_t driver = getpid();
  pid_ = fork();
  if (pid_ == 0) {
    for (int fd : {session_fd, channel_fd, report_fd_, out_fd_, err_fd_}) fcntl(fd, F_SETFD, 0);
    exec_program(path.c_str(), argv.data(), envp, input->fd(), prelude_out_fd_, prelude_err_fd_, own_group, driver);
  }
  close_prepared();
  if (pid_ < 0) {
    close(session[1]);
    return false;
  }
  if (own_group) setpgid(pid_, pid_);
  watched_.emplace(pid_, own_group);
  session_ = session[1];
  return true;
}

bool ForkServer::run(const RunConfig& c, int p, std::uint64_t seed, RunOutcome& r) {
  r.p = p;
  r.seed = seed;
  // Through the server's descriptors (the child closes its own copies; runtime/isolation/fork_server.cpp).
  const auto proc_path = [&](int fd) { return "/proc/" + std::to_string(pid_) + "/fd/" + std::to_string(fd); };
  const std::string report = proc_path(report_fd_), out = proc_path(out_fd_), err = proc_path(err_fd_);
  // Empty, for this run (the worker rewinds them); the report file only when it was used.
  for (int fd : {out_fd_, err_fd_, report_file_used_ ? report_fd_ : -1}) {
    if (fd >= 0 && ftruncate(fd, 0) != 0) return false;
  }
  const std::optional<std::string> request =
      rt::fork_protocol::encode({runtime_options(c, p, seed), report, out, err, repro_command(c, p, seed)});
  // A field with a tab or newline, or a request longer than the channel holds, cannot be sent:
  // run it the usual way.
  if (!request || request->size() >= sizeof channel_->request) return false;
  const auto start = std::chrono::steady_clock::now();
  std::memcpy(channel_->request, request->c_str(), request->size() + 1);
  channel_->taken.store(0, std::memory_order_relaxed);  // published by the post
  channel_->report_bytes.store(-1, std::memory_order_relaxed);
  channel_->begin_errno = 0;
  rt::fork_protocol::post(*channel_, rt::fork_protocol::kRequest);
  const double limit = c.options.timeout_seconds > 0 ? c.options.timeout_seconds + 5 : -1;
  if (!await_done(limit, &r.timed_out)) return false;
  if (const int e = channel_->begin_errno) {
    // Not the program's exit: the worker could not set the run up. Said once per server, then
    // the run (and the later ones at this p) goes the usual way.
    if (!c.quiet)
      std::fprintf(
          stderr,
          "bsp-check: note: p = %d: a fork server's worker could not begin a run (%s); runs at p = %d start anew\n", p,
          std::strerror(e), p);
    return false;
  }
  const int status = channel_->status;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_status = 128 + WTERMSIG(status);
  const std::int32_t report_bytes = channel_->report_bytes.load(std::memory_order_acquire);
  report_file_used_ = report_bytes < 0 || static_cast<std::size_t>(report_bytes) > sizeof channel_->report;
  if (!prelude_read_) {  // what main printed before bsp_begin, once
    prelude_read_ = true;
    prelude_ = read_all(prelude_out_fd_);
    prelude_err_ = read_all(prelude_err_fd_);
  }
  r.out = prelude_ + read_all(out_fd_);
  r.err = prelude_err_ + read_all(err_fd_);  // first: the outcome reads the C library's last words in it
  finish_outcome_from_text(
      r, c,
      report_file_used_ ? read_all(report_fd_) : std::string(channel_->report, static_cast<std::size_t>(report_bytes)));
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
    if (static_cast<std::size_t>(n) < sizeof buf) return text;  // a short read: a memfd's end
  }
}

bool ForkServer::server_alive() const {
  siginfo_t info{};
  // Not reaped here (WNOWAIT): the destructor does, and until then no other process can have
  // the server's pid, which an interrupt kills.
  return waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

bool ForkServer::await_done(double limit, bool* timed_out) {
  // A server gone (a program that ended before bsp_begin, an interrupt) is noticed within a tick.
  const timespec tick{0, 20 * 1000 * 1000};
  const auto start = std::chrono::steady_clock::now();
  double grace = -1;  // after a kill: how long the server may take to post the end
  for (;;) {
    const std::uint32_t s = channel_->state.load(std::memory_order_acquire);
    if (s == rt::fork_protocol::kDone) return true;
    if (rt::fork_protocol::futex_wait(channel_->state, s, &tick) != 0 && errno == ETIMEDOUT && !server_alive())
      return false;
    if (limit < 0) continue;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (grace >= 0) {
      if (waited > grace) return false;
    } else if (waited > limit) {
      if (const pid_t worker = channel_->worker_pid; worker > 0) kill(worker, SIGKILL);  // past its --timeout
      *timed_out = true;
      grace = waited + 10;
    }
  }
}

}  // namespace bspcheck::cli
