#include "tools/run_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <map>
#include <set>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "bspcheck/rules.hpp"
#include "runtime/options.hpp"
#include "runtime/shell_word.hpp"
#include "tools/atomic_file.hpp"
#include "tools/interrupt.hpp"
#include "tools/program_check.hpp"
#include "tools/reports.hpp"
#include "tools/stdin_feed.hpp"
#include "tools/temp_files.hpp"

extern char** environ;

namespace bspcheck::cli {

std::string shell_quote(const std::string& s) { return rt::shell_word(s); }

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string repro_command(const RunConfig& c, int p, std::uint64_t seed) {
  std::string cmd = "bsp-check run -p " + std::to_string(p) + " --seed " + std::to_string(seed);
  if (c.strategy != "random") cmd += " --strategy " + c.strategy;
  if (c.strategy == "pct")
    cmd += " --pct-depth " + std::to_string(c.pct_depth) + " --pct-steps " + std::to_string(c.pct_steps);
  if (!c.stack_size.empty()) cmd += " --stack-size " + c.stack_size;
  if (c.timeout > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", c.timeout);
    cmd += std::string(" --timeout ") + t;
  }
  if (c.werror) cmd += " --werror";
  if (!c.disabled_rules.empty()) cmd += " --disable " + join(c.disabled_rules, ",");
  if (!c.suppressions_file.empty()) cmd += " --suppressions " + shell_quote(c.suppressions_file);
  if (c.no_check) cmd += " --no-check";
  if (c.time_jitter) cmd += " --time-jitter";
  if (!c.globals.empty()) cmd += " --globals " + c.globals;
  cmd += " " + shell_quote(c.program);
  for (const std::string& a : c.args) cmd += " " + shell_quote(a);
  return cmd;
}

int make_memfd(const char* name) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) {
    std::perror("bsp-check: memfd_create");
    std::exit(2);
  }
  return fd;
}

std::string read_fd(int fd) {
  std::string s;
  lseek(fd, 0, SEEK_SET);
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<std::size_t>(n));
  return s;
}

struct RunOutcome {
  int p = 0;
  std::uint64_t seed = 0;
  int exit_status = 0;      // of the program; 128+signal when killed
  bool timed_out = false;
  bool passed = false;
  double seconds = 0;
  nlohmann::json report;    // the runtime's report, or null
  std::string out, err;     // captured output (when not streamed)
  std::string reason;       // one line when the run failed without a finding
};

// BSPCHECK_OPTIONS of one run: the flags' values (checked when they were parsed) set through the
// options table and printed by it (runtime/options.def).
std::string runtime_options(const RunConfig& c, int p, std::uint64_t seed) {
  rt::ProgramOptions o;
  o.run.seed = seed;
  o.run.procs = p;
  rt::set_program_option(o, "strategy", c.strategy);
  if (c.strategy == "pct") {
    o.run.pct_depth = c.pct_depth;
    o.run.pct_steps = c.pct_steps;
  }
  if (!c.stack_size.empty()) rt::set_program_option(o, "stack", c.stack_size);
  o.timeout_seconds = c.timeout;
  o.run.werror = c.werror;
  o.run.disabled_rules = c.disabled_rules;
  o.run.suppressions_file = c.suppressions_file;
  o.run.checks = !c.no_check;
  o.run.time_jitter = c.time_jitter;
  if (!c.globals.empty()) rt::set_program_option(o, "globals", c.globals);
  o.run.trace_file = c.trace_file;
  o.run.replay_file = c.replay_file;
  o.run.guide_file = c.guide_file;
  o.run.guide_log = c.guide_log;
  return rt::format_program_options(o, rt::OptionScope::all);
}

// Does a child started with this standard input lead its own process group (tools/interrupt.hpp)?
bool own_group_for(const StdinFeed& in) { return child_gets_own_group(in.terminal()); }

// The environment every run of c shares, set in the driver before each fork. Nothing between
// fork and exec may allocate: the stdin feed may have a thread, and a child forked while it
// holds the allocator's lock would deadlock in malloc (setenv, std::string, std::vector).
void set_shared_run_environment(const RunConfig& c) {
  // A program built with UBSan (-fno-sanitize-recover) otherwise exits quietly at the first
  // error; aborting lets the runtime contain it as a `crash` finding naming the process.
  if (!std::getenv("UBSAN_OPTIONS")) setenv("UBSAN_OPTIONS", "abort_on_error=1:print_stacktrace=1", 1);
  if (!c.prefix.empty()) setenv("BSPCHECK_PREFIX", c.prefix.c_str(), 1);
  else unsetenv("BSPCHECK_PREFIX");
}

// The program's argument vector for execv, built before fork (see set_shared_run_environment).
// It points into c, which outlives every child.
std::vector<char*> program_argv(const RunConfig& c) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(c.program.c_str()));  // execv does not write through them
  for (const std::string& a : c.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

// In a forked child: standard input from its start, output to out_fd/err_fd (when >= 0), and
// exec of the program. Allocates nothing. Does not return.
[[noreturn]] void exec_program(const char* path, char* const* argv, int stdin_fd, int out_fd, int err_fd,
                               bool own_group) {
  restore_default_signals();
  if (own_group) setpgid(0, 0);  // one kill reaches the program and whatever it forks
  if (stdin_fd >= 0) dup2(stdin_fd, STDIN_FILENO);  // positioned by StdinFeed
  if (out_fd >= 0) dup2(out_fd, STDOUT_FILENO);
  if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
  execv(path, argv);
  std::fprintf(stderr, "bsp-check: error: cannot execute %s: %s\n", path, std::strerror(errno));
  _exit(127);
}

// Reads the runtime's report of a finished run and decides whether the run passed.
void finish_outcome(RunOutcome& r, const RunConfig& c, const std::string& report_path) {
  std::ifstream rep(report_path);
  if (rep) {
    std::stringstream ss;
    ss << rep.rdbuf();
    if (!ss.str().empty()) {
      try {
        r.report = nlohmann::json::parse(ss.str());
      } catch (const std::exception&) {
        r.report = nullptr;
      }
    }
  }
  unlink(report_path.c_str());
  if (r.report.is_object() && !(r.report.contains("findings") && r.report["findings"].is_array()))
    r.report["findings"] = nlohmann::json::array();

  bool errors = false;  // findings that fail the run: errors, and with --werror warnings
  if (r.report.is_object())
    for (const auto& f : r.report["findings"]) errors = errors || finding_fails(f, c.werror);
  if (r.timed_out) r.reason = "killed: still running 5 s past its --timeout";
  else if (!r.report.is_object())
    r.reason = r.exit_status == 127 ? "could not be executed"
                                    : "the program ended without a bsp-check report (it never called bsp_begin, or the "
                                      "runtime could not write the report), exit status " +
                                          std::to_string(r.exit_status);
  else if (r.exit_status >= 128) r.reason = "killed by signal " + std::to_string(r.exit_status - 128);
  else if (r.exit_status != 0 && !errors) r.reason = "the program exited with status " + std::to_string(r.exit_status);
  r.passed = !errors && r.reason.empty() && r.exit_status == 0;
}

RunOutcome run_once(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, StdinFeed& in, bool stream) {
  RunOutcome r;
  r.p = p;
  r.seed = seed;
  std::string report_template = temp_template("report");
  char* report_path = report_template.data();
  int report_fd = mkostemp(report_path, O_CLOEXEC);
  if (report_fd >= 0) close(report_fd);
  int out_fd = stream ? -1 : make_memfd("bsp-check-stdout");
  int err_fd = stream ? -1 : make_memfd("bsp-check-stderr");
  const std::string options = runtime_options(c, p, seed);
  const std::string repro = repro_command(c, p, seed);

  const auto start = std::chrono::steady_clock::now();
  const bool own_group = own_group_for(in);
  // The run's environment and arguments, before fork (see set_shared_run_environment). The
  // shared part too: a divergence is run again with another --prefix.
  set_shared_run_environment(c);
  const std::vector<char*> argv = program_argv(c);
  setenv("BSPCHECK_OPTIONS", options.c_str(), 1);
  setenv("BSPCHECK_REPORT", report_path, 1);
  setenv("BSPCHECK_REPRO", repro.c_str(), 1);
  const std::unique_ptr<StdinFeed::Run> input = in.start_run();  // outlives the child: reaped first
  pid_t child = fork();
  if (child < 0) {
    std::perror("bsp-check: fork");
    std::exit(2);
  }
  if (child == 0) {
    exec_program(path.c_str(), argv.data(), input->fd(), out_fd, err_fd, own_group);
  }
  input->child_started();
  if (own_group) setpgid(child, child);  // also here: whichever of the two runs first
  const WatchedChild watched(child, own_group);

  // Wait, with a hard limit a little beyond the runtime's own timeout (which reports details).
  int status = 0;
  const double hard_limit = c.timeout > 0 ? c.timeout + 5 : 0;
  for (;;) {
    pid_t w = waitpid(child, &status, hard_limit > 0 ? WNOHANG : 0);
    if (w == child) break;
    if (w < 0 && errno != EINTR) break;
    if (hard_limit > 0) {
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed > hard_limit) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        r.timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_status = 128 + WTERMSIG(status);

  finish_outcome(r, c, report_path);
  if (out_fd >= 0) {
    r.out = read_fd(out_fd);
    r.err = read_fd(err_fd);
    close(out_fd);
    close(err_fd);
  }
  return r;
}

// A fork server (runtime/fork_server.hpp): the program started once per p, forking a child per
// seed at bsp_begin, so that a run costs a fork instead of an exec and the dynamic loading.
class ForkServer {
 public:
  ForkServer() = default;
  ForkServer(const ForkServer&) = delete;
  ForkServer& operator=(const ForkServer&) = delete;
  ~ForkServer() {
    if (req_ >= 0) close(req_);
    if (res_ >= 0) close(res_);
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

  bool start(const RunConfig& c, const std::string& path, int p, StdinFeed& in) {
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
    const int out_fd = open((dir_ + "/server.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const int err_fd = open((dir_ + "/server.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const auto close_prepared = [&] {
      for (int fd : {req[0], res[1], request_fd, result_fd, out_fd, err_fd})
        if (fd >= 0) close(fd);
    };
    if (request_fd < 0 || result_fd < 0) {
      close_prepared();
      close(req[1]);
      close(res[0]);
      return false;
    }
    set_shared_run_environment(c);
    const std::vector<char*> argv = program_argv(c);
    setenv("BSPCHECK_FORKSERVER", (std::to_string(request_fd) + "," + std::to_string(result_fd)).c_str(), 1);
    setenv("BSPCHECK_OPTIONS", runtime_options(c, p, c.seed).c_str(), 1);
    setenv("BSPCHECK_REPORT", (dir_ + "/server.json").c_str(), 1);
    const bool own_group = own_group_for(in);
    const std::unique_ptr<StdinFeed::Run> input = in.start_run();  // shareable: a file or a terminal
    pid_ = fork();
    if (pid_ == 0) {
      fcntl(request_fd, F_SETFD, 0);
      fcntl(result_fd, F_SETFD, 0);
      exec_program(path.c_str(), argv.data(), input->fd(), out_fd, err_fd, own_group);
    }
    unsetenv("BSPCHECK_FORKSERVER");  // a plain run started later must not take itself for a server
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

  // One run through the server; false when the server is gone (the caller runs it the usual way).
  bool run(const RunConfig& c, int p, std::uint64_t seed, RunOutcome& r) {
    r.p = p;
    r.seed = seed;
    const std::string report = dir_ + "/run.json", out = dir_ + "/run.out", err = dir_ + "/run.err";
    std::string request = runtime_options(c, p, seed) + "\t" + report + "\t" + out + "\t" + err + "\t" +
                          repro_command(c, p, seed) + "\n";
    if (request.find('\n') != request.size() - 1) return false;  // a field with a newline cannot be sent
    const auto start = std::chrono::steady_clock::now();
    if (!write_request(request)) return false;
    std::string line;
    if (!read_line(line, -1) || line.rfind("pid ", 0) != 0) return false;
    const pid_t child = static_cast<pid_t>(std::atol(line.c_str() + 4));
    if (child <= 0) return false;
    const double limit = c.timeout > 0 ? c.timeout + 5 : -1;
    if (!read_line(line, limit)) {
      if (limit < 0) return false;
      kill(child, SIGKILL);  // past its --timeout: the server reports the kill
      r.timed_out = true;
      if (!read_line(line, 10)) return false;
    }
    if (line.rfind("status ", 0) != 0) return false;
    const int status = std::atoi(line.c_str() + 7);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) r.exit_status = 128 + WTERMSIG(status);
    finish_outcome(r, c, report);
    if (!prelude_read_) {  // what main printed before bsp_begin, once
      prelude_read_ = true;
      prelude_ = slurp(dir_ + "/server.out");
      prelude_err_ = slurp(dir_ + "/server.err");
    }
    r.out = prelude_ + slurp(out);
    r.err = prelude_err_ + slurp(err);
    return true;
  }

 private:
  // Writes a request to the server. A program that never reaches bsp_begin never serves: it may
  // have exited already, and the write to its closed pipe raises SIGPIPE, which would kill
  // bsp-check itself. SIGPIPE is blocked around the write (not ignored: programs inherit an
  // ignored signal through exec) and a pending one is taken; the caller then runs the program
  // the usual way.
  bool write_request(const std::string& request) {
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

  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // Reads one line from the server; false on EOF or when `timeout` seconds (if >= 0) pass.
  bool read_line(std::string& line, double timeout) {
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

  // The lowest descriptor number of the server's channel in the program (runtime/fork_server.cpp).
  static constexpr int kChannelFdFloor = 100;
  pid_t pid_ = -1;
  std::optional<WatchedChild> watched_;  // destroyed after the destructor has reaped pid_
  int req_ = -1, res_ = -1;
  std::string dir_, buffer_, prelude_, prelude_err_;
  bool prelude_read_ = false;
};

nlohmann::json outcome_json(const RunOutcome& r) {
  nlohmann::json j = {{"procs", r.p}, {"seed", r.seed}, {"exit_status", r.exit_status}, {"passed", r.passed}};
  j["findings"] = r.report.is_object() ? r.report["findings"] : nlohmann::json::array();
  if (r.report.is_object()) {
    j["nprocs"] = r.report.value("nprocs", 0);
    j["supersteps"] = r.report.value("supersteps", 0);
    if (r.report.contains("output_hash")) j["output_hash"] = r.report["output_hash"];
  }
  if (!r.reason.empty()) j["reason"] = r.reason;
  return j;
}

// Output kept for the JUnit file: bounded, a failing run's end is what matters.
std::string tail_of(const std::string& s, std::size_t limit = 64 * 1024) {
  if (s.size() <= limit) return s;
  return "[... " + std::to_string(s.size() - limit) + " bytes not kept ...]\n" + s.substr(s.size() - limit);
}

// A row of the summary table: a rule at its source locations, whatever the processes and message.
struct Row {
  std::string rule, where;
  int first_p = 0;
  std::uint64_t first_seed = 0;
  std::size_t runs = 0;
  std::size_t variants = 0;  // distinct findings (messages, processes) in this row
  std::uint64_t last_run = ~0ull;
  bool fails = false;
};

void print_table(const std::vector<Row>& rows, std::uint64_t runs_with_findings, std::uint64_t done) {
  std::size_t wr = 4, ww = 8;
  for (const Row& r : rows) {
    wr = std::max(wr, r.rule.size());
    ww = std::max(ww, r.where.size());
  }
  std::fprintf(stderr, "bsp-check: findings in %llu of %llu runs:\n", static_cast<unsigned long long>(runs_with_findings),
               static_cast<unsigned long long>(done));
  std::fprintf(stderr, "  %-*s  %-*s  %6s  %s\n", static_cast<int>(wr), "rule", static_cast<int>(ww), "location", "runs",
               "first seen");
  for (const Row& r : rows) {
    std::string first = "p=" + std::to_string(r.first_p) + " seed=" + std::to_string(r.first_seed);
    if (r.variants > 1) first += " (" + std::to_string(r.variants) + " variants)";
    std::fprintf(stderr, "  %-*s  %-*s  %6llu  %s\n", static_cast<int>(wr), r.rule.c_str(), static_cast<int>(ww),
                 r.where.c_str(), static_cast<unsigned long long>(r.runs), first.c_str());
  }
}

}  // namespace

// The lines process `pid` printed, from output captured with the prefix "[pid] ".
std::vector<std::string> lines_of(const std::string& text, int pid) {
  std::vector<std::string> lines;
  const std::string tag = "[" + std::to_string(pid) + "] ";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(tag, 0) == 0) lines.push_back(line.substr(tag.size()));
  return lines;
}

// Two runs of the same p printed different output on some process: run both again with
// per-process prefixes (runs are deterministic) and describe the first differing line.
nlohmann::json divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                                  std::uint64_t seed_b, int pid, StdinFeed& in) {
  RunConfig again = c;
  again.prefix = "[%p] ";
  again.keep_trace = false;
  const RunOutcome a = run_once(again, path, p, seed_a, in, false);
  const RunOutcome b = run_once(again, path, p, seed_b, in, false);
  std::string detail = "the outputs could not be told apart when run again";
  for (std::string RunOutcome::*stream : {&RunOutcome::out, &RunOutcome::err}) {
    const std::vector<std::string> la = lines_of(a.*stream, pid);
    const std::vector<std::string> lb = lines_of(b.*stream, pid);
    std::size_t i = 0;
    while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
    if (i == la.size() && i == lb.size()) continue;
    auto show = [](const std::vector<std::string>& l, std::size_t k) { return k < l.size() ? "\"" + l[k] + "\"" : std::string("(no line)"); };
    detail = std::string("first difference on ") + (stream == &RunOutcome::out ? "stdout" : "stderr") + ", line " +
             std::to_string(i + 1) + ": seed " + std::to_string(seed_a) + " prints " + show(la, i) + ", seed " +
             std::to_string(seed_b) + " prints " + show(lb, i);
    break;
  }
  nlohmann::json f;
  f["rule"] = rule_id(Rule::schedule_divergence);
  f["severity"] = "error";
  f["message"] = "process " + std::to_string(pid) + " prints different output under seeds " + std::to_string(seed_a) +
                 " and " + std::to_string(seed_b) + " (p = " + std::to_string(p) + "); " + detail +
                 ". Reproduce both: " + repro_command(c, p, seed_a) + " ; " + repro_command(c, p, seed_b) +
                 ". If the output legitimately depends on the schedule, use --schedule-dependent-output";
  f["processes"] = {pid};
  f["superstep"] = 0;
  f["locations"] = nlohmann::json::array();
  f["seed"] = seed_b;
  return f;
}

QuietRun run_quietly(const RunConfig& c, const std::string& path, int p, std::uint64_t seed) {
  static StdinFeed stdin_feed;  // shrink and explore: each run gets the same input
  const RunOutcome r = run_once(c, path, p, seed, stdin_feed, false);
  QuietRun q;
  q.passed = r.passed;
  q.reason = r.reason;
  if (r.report.is_object())
    for (const auto& f : r.report["findings"])
      if (f.value("severity", "") == "error" || c.werror) q.failing_rules.push_back(f.value("rule", ""));
  return q;
}

namespace {

int report_write_failed(const AtomicFile& f) {
  std::cerr << "bsp-check: error: writing " << f.path() << " failed: " << f.error() << "\n";
  return 2;
}

}  // namespace

int run_command(const RunConfig& c) {
  ProgramCheck pc = check_program(c.program);
  if (!pc.error.empty()) {
    std::cerr << "bsp-check: error: " << pc.error << "\n";
    return 2;
  }
  // Output files are opened before the first run: a typo should not cost a long session. They
  // are written whole at the end, and renamed into place (tools/atomic_file.hpp).
  std::optional<AtomicFile> json_out, sarif_out, junit_out;
  for (auto [file, out] : {std::pair{&c.json_file, &json_out}, std::pair{&c.sarif_file, &sarif_out},
                           std::pair{&c.junit_file, &junit_out}}) {
    if (file->empty()) continue;
    out->emplace(*file);
    if (!(*out)->ok()) {
      std::cerr << "bsp-check: error: cannot write " << *file << ": " << (*out)->error() << "\n";
      return 2;
    }
  }
  install_interrupt_handlers();

  const std::uint64_t total = c.procs.size() * c.seeds;
  const bool stream = total == 1;  // a single run shows its output live
  const bool progress = !c.quiet && !stream && isatty(STDERR_FILENO);
  StdinFeed stdin_feed;  // nothing is read before the first run wants it

  nlohmann::json runs = nlohmann::json::array();
  std::vector<RunRecord> records;
  std::uint64_t done = 0, failed = 0, with_findings = 0, with_warnings = 0;
  std::set<std::string> seen;                    // finding_key of every finding shown
  std::map<std::string, std::size_t> row_index;  // rule + where -> rows[]
  std::vector<Row> rows;
  std::vector<std::string> repro_lines;          // failing runs shown in full
  std::uint64_t repro_more = 0;
  std::optional<std::pair<int, std::uint64_t>> first_failure;
  // Fork servers, one per p, for many runs of plain seeds (not for a single, streamed run).
  // A streamed stdin (a pipe) is a pipe of each run's own: runs are started anew then.
  const bool use_servers = c.fork_server && !stream && c.trace_file.empty() && c.replay_file.empty() &&
                           c.guide_file.empty() && stdin_feed.shareable();
  std::map<int, std::unique_ptr<ForkServer>> servers;
  std::set<int> no_server;
  bool first_failure_diverged = false;  // it failed only by comparison with another seed
  // Per p: the first clean run's seed and per-process output digests, to compare later seeds with.
  std::map<int, std::pair<std::uint64_t, nlohmann::json>> reference_output;
  const auto start = std::chrono::steady_clock::now();
  for (int p : c.procs) {
    for (std::uint64_t i = 0; i < c.seeds && !interrupted(); ++i) {
      const std::uint64_t seed = c.seed + i;
      if (progress)
        std::fprintf(stderr, "\rbsp-check: run %llu/%llu (p=%d seed=%llu)...", static_cast<unsigned long long>(done + 1),
                     static_cast<unsigned long long>(total), p, static_cast<unsigned long long>(seed));
      RunOutcome r;
      bool served = false;
      if (use_servers && !no_server.count(p)) {
        std::unique_ptr<ForkServer>& server = servers[p];
        if (!server) {
          server = std::make_unique<ForkServer>();
          if (!server->start(c, pc.path, p, stdin_feed)) server.reset();
        }
        if (server) served = server->run(c, p, seed, r);
        if (!served) {  // e.g. a program that never reaches bsp_begin: run it the usual way
          servers.erase(p);
          no_server.insert(p);
          r = RunOutcome{};
        }
      }
      if (!served && !interrupted()) r = run_once(c, pc.path, p, seed, stdin_feed, stream);
      if (interrupted()) break;  // this run was killed half-way: it is not counted, passed or failed
      ++done;
      // Across seeds: each process's output must not depend on the schedule.
      const bool compare_outputs =
          !c.schedule_dependent_output && !c.no_check &&
          std::find(c.disabled_rules.begin(), c.disabled_rules.end(), rule_id(Rule::schedule_divergence)) == c.disabled_rules.end();
      if (r.passed && !stream && compare_outputs && r.report.is_object() &&
          r.report.contains("output_hash")) {
        const nlohmann::json& hashes = r.report["output_hash"];
        auto [ref, first] = reference_output.try_emplace(p, seed, hashes);
        if (!first && ref->second.second.size() == hashes.size())
          for (std::size_t k = 0; k < hashes.size(); ++k)
            if (hashes[k] != ref->second.second[k]) {
              nlohmann::json f = divergence_finding(c, pc.path, p, ref->second.first, seed, static_cast<int>(k), stdin_feed);
              r.err += render_finding(f, "");  // shown with the run, like the runtime's own findings
              r.report["findings"].push_back(std::move(f));
              r.passed = false;
              break;
            }
      }
      runs.push_back(outcome_json(r));
      const nlohmann::json findings = r.report.is_object() ? r.report["findings"] : nlohmann::json::array();

      // Which of its findings were not seen in an earlier run?
      std::vector<const nlohmann::json*> fresh;
      bool warnings = false;
      for (const auto& f : findings) {
        warnings = warnings || f.value("severity", "") == "warning";
        const bool is_new = seen.insert(finding_key(f)).second;
        if (is_new) fresh.push_back(&f);
        const std::string rk = f.value("rule", "") + "\x1f" + finding_where(f);
        auto [ri, new_row] = row_index.try_emplace(rk, rows.size());
        if (new_row) rows.push_back(Row{f.value("rule", ""), finding_where(f), p, seed, 0, 0, ~0ull, false});
        Row& row = rows[ri->second];
        if (is_new) ++row.variants;
        if (row.last_run != done) ++row.runs, row.last_run = done;
        row.fails = row.fails || finding_fails(f, c.werror);
      }
      if (!findings.empty()) ++with_findings;
      if (warnings) ++with_warnings;

      if (!stream) {
        auto header = [&](const std::string& what) {
          if (progress) std::fputs("\r\033[K", stderr);
          std::fprintf(stderr, "==== p=%d seed=%llu: %s ====\n", p, static_cast<unsigned long long>(seed), what.c_str());
          std::fflush(stderr);
        };
        if (c.verbose || (!r.passed && (!fresh.empty() || findings.empty()))) {
          // In full: every run with -v, a failing run with a new finding or without findings.
          header(r.passed ? "ok" : "FAILED");
          std::cout << r.out << std::flush;
          std::cerr << r.err << std::flush;
          if (!r.passed) {
            if (repro_lines.size() < 10) repro_lines.push_back(repro_command(c, p, seed));
            else ++repro_more;
          }
        } else if (!r.passed) {
          // Only findings already shown in full: counted in the summary table, not repeated.
          ++repro_more;
        } else if (!fresh.empty()) {
          // A passing run with new warnings: the warnings, not the program's output.
          header("ok, with warnings");
          for (const nlohmann::json* f : fresh) std::cerr << render_finding(*f, repro_command(c, p, seed));
          std::cerr << std::flush;
        }
      }
      RunRecord rec;
      rec.p = p;
      rec.seed = seed;
      rec.passed = r.passed;
      rec.exit_status = r.exit_status;
      rec.seconds = r.seconds;
      rec.findings = findings;
      rec.reason = r.reason;
      rec.repro = repro_command(c, p, seed);
      if (!r.passed && (!c.junit_file.empty() || !c.sarif_file.empty())) {
        rec.out = tail_of(r.out);
        rec.err = tail_of(r.err);
      }
      if (!c.junit_file.empty() || !c.sarif_file.empty()) records.push_back(std::move(rec));
      if (!r.passed) {
        ++failed;
        if (!first_failure) {
          first_failure = std::make_pair(p, seed);
          first_failure_diverged = r.exit_status == 0 && r.report.is_object() &&
                                   r.report["findings"].back().value("rule", "") == rule_id(Rule::schedule_divergence);
        }
        if (!r.reason.empty())
          std::cerr << "bsp-check: error: p=" << p << " seed=" << seed << ": " << r.reason << "\n";
        if (!c.keep_going) break;
      }
    }
    if ((failed && !c.keep_going) || interrupted()) break;
  }
  servers.clear();  // the fork servers and their folders are gone before the reports are written
  if (progress) std::fputs("\r\033[K", stderr);
  const int stop_signal = interrupt_signal();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  SessionInfo session;
  session.program = c.program;
  session.args = c.args;
  session.command_line = c.command_line;
  session.version = c.version;
  session.werror = c.werror;
  session.seconds = secs;
  if (stop_signal) session.interrupted_by = stop_signal == SIGINT ? "SIGINT" : stop_signal == SIGTERM ? "SIGTERM" : "SIGHUP";
  const auto dump = [](const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); };
  if (json_out) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", c.program},
                        {"args", c.args},
                        {"options",
                         {{"werror", c.werror},
                          {"disable", c.disabled_rules},
                          {"suppressions", c.suppressions_file},
                          {"check", !c.no_check}}},
                        {"runs", runs},
                        {"total", done},
                        {"failed", failed},
                        {"planned", total},
                        {"interrupted", stop_signal != 0}};
    if (stop_signal) j["interrupted_by"] = session.interrupted_by;
    if (!json_out->commit(dump(j) + "\n")) return report_write_failed(*json_out);
  }
  if (sarif_out && !sarif_out->commit(dump(sarif_log(session, records)) + "\n"))
    return report_write_failed(*sarif_out);
  if (junit_out && !junit_out->commit(junit_xml(session, records))) return report_write_failed(*junit_out);

  // Identical findings of many runs: one table instead of a thousand repeats.
  if (!c.quiet && done > 1 && !rows.empty()) print_table(rows, with_findings, done);

  if (stop_signal) {
    std::fprintf(stderr, "bsp-check: interrupted by %s after %llu of %llu runs (%llu failed) in %.1f s\n",
                 session.interrupted_by.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), static_cast<unsigned long long>(failed), secs);
    for (const std::string& line : repro_lines) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
    return 128 + stop_signal;  // as a shell reports a command ended by the signal
  }
  char range[160];
  std::snprintf(range, sizeof range, "p = %s; seeds %llu..%llu", c.procs_text.c_str(),
                static_cast<unsigned long long>(c.seed), static_cast<unsigned long long>(c.seed + c.seeds - 1));
  if (failed == 0) {
    if (!c.quiet) {
      std::fprintf(stderr, "bsp-check: %llu run%s clean (%s) in %.1f s", static_cast<unsigned long long>(done),
                   done == 1 ? "" : "s", range, secs);
      if (with_warnings) std::fprintf(stderr, ", %llu with warnings", static_cast<unsigned long long>(with_warnings));
      std::fputs("\n", stderr);
    }
    return 0;
  }
  std::fprintf(stderr, "bsp-check: %llu of %llu run%s FAILED (%s) in %.1f s%s\n", static_cast<unsigned long long>(failed),
               static_cast<unsigned long long>(done), done == 1 ? "" : "s", range, secs,
               !c.keep_going && done < total ? "; stopped at the first failure (--keep-going runs all)" : "");
  for (const std::string& line : repro_lines) std::fprintf(stderr, "  reproduce: %s\n", line.c_str());
  if (repro_more)
    std::fprintf(stderr, "  ... and %llu more failing run%s%s\n", static_cast<unsigned long long>(repro_more),
                 repro_more == 1 ? "" : "s", c.json_file.empty() ? " (--json FILE lists every run)" : "");
  if (first_failure && c.keep_trace && c.trace_file.empty() && c.replay_file.empty() && !interrupted()) {
    // Keep the trace of the first failing run: runs are deterministic, so running that seed
    // again with recording on gives exactly the run that failed.
    RunConfig again = c;
    const std::string base = std::filesystem::path(c.program).filename().string();
    again.trace_file = (std::filesystem::path(c.trace_dir) /
                        (base + "-p" + std::to_string(first_failure->first) + "-s" +
                         std::to_string(first_failure->second) + ".trace"))
                           .string();
    RunOutcome r = run_once(again, pc.path, first_failure->first, first_failure->second, stdin_feed, false);
    if (interrupted()) {  // the recording was cut short: its trace is not the failing run
      std::error_code ignored;
      std::filesystem::remove(again.trace_file, ignored);
      return 128 + interrupt_signal();
    }
    if (r.passed && !first_failure_diverged)
      std::fprintf(stderr, "bsp-check: note: the failing run passed when run again to record it; not deterministic?\n");
    if ((!r.passed || first_failure_diverged) && std::filesystem::exists(again.trace_file))
      std::fprintf(stderr, "  trace: %s\n  replay: bsp-check replay %s\n", again.trace_file.c_str(),
                   shell_quote(again.trace_file).c_str());
  }
  return 1;
}

}  // namespace bspcheck::cli
