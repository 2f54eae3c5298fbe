#include "tools/run_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tools/program_check.hpp"

extern char** environ;

namespace bspcheck::cli {

namespace {

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string repro_command(const RunConfig& c, int p, std::uint64_t seed) {
  std::string cmd = "bsp-check run -p " + std::to_string(p) + " --seed " + std::to_string(seed);
  if (c.strategy != "random") cmd += " --strategy " + c.strategy;
  if (!c.stack_size.empty()) cmd += " --stack-size " + c.stack_size;
  if (c.timeout > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", c.timeout);
    cmd += std::string(" --timeout ") + t;
  }
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

// Standard input is read once and given to every run.
int stdin_for_runs() {
  if (isatty(STDIN_FILENO)) return -1;  // interactive: no input to replay
  int fd = make_memfd("bsp-check-stdin");
  char buf[65536];
  ssize_t n;
  while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0)
    if (write(fd, buf, static_cast<std::size_t>(n)) != n) break;
  return fd;
}

struct RunOutcome {
  int p = 0;
  std::uint64_t seed = 0;
  int exit_status = 0;      // of the program; 128+signal when killed
  bool timed_out = false;
  bool passed = false;
  nlohmann::json report;    // the runtime's report, or null
  std::string out, err;     // captured output (when not streamed)
  std::string reason;       // one line when the run failed without a finding
};

RunOutcome run_once(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, int stdin_fd, bool stream) {
  RunOutcome r;
  r.p = p;
  r.seed = seed;
  char report_path[] = "/tmp/bsp-check-report-XXXXXX";
  int report_fd = mkstemp(report_path);
  if (report_fd >= 0) close(report_fd);
  int out_fd = stream ? -1 : make_memfd("bsp-check-stdout");
  int err_fd = stream ? -1 : make_memfd("bsp-check-stderr");

  std::string options = "seed=" + std::to_string(seed) + ":procs=" + std::to_string(p) + ":strategy=" + c.strategy;
  if (!c.stack_size.empty()) options += ":stack=" + c.stack_size;
  if (c.timeout > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", c.timeout);
    options += std::string(":timeout=") + t;
  }

  pid_t child = fork();
  if (child < 0) {
    std::perror("bsp-check: fork");
    std::exit(2);
  }
  if (child == 0) {
    setenv("BSPCHECK_OPTIONS", options.c_str(), 1);
    setenv("BSPCHECK_REPORT", report_path, 1);
    setenv("BSPCHECK_REPRO", repro_command(c, p, seed).c_str(), 1);
    if (!c.prefix.empty()) setenv("BSPCHECK_PREFIX", c.prefix.c_str(), 1);
    else unsetenv("BSPCHECK_PREFIX");
    if (stdin_fd >= 0) {
      lseek(stdin_fd, 0, SEEK_SET);
      dup2(stdin_fd, STDIN_FILENO);
    }
    if (out_fd >= 0) dup2(out_fd, STDOUT_FILENO);
    if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
    std::vector<char*> argv;
    std::string prog = c.program;
    argv.push_back(prog.data());
    std::vector<std::string> args = c.args;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    std::fprintf(stderr, "bsp-check: error: cannot execute %s: %s\n", path.c_str(), std::strerror(errno));
    _exit(127);
  }

  // Wait, with a hard limit a little beyond the runtime's own timeout (which reports details).
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
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
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_status = 128 + WTERMSIG(status);

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
  unlink(report_path);
  if (out_fd >= 0) {
    r.out = read_fd(out_fd);
    r.err = read_fd(err_fd);
    close(out_fd);
    close(err_fd);
  }

  bool errors = false;
  if (r.report.is_object())
    for (const auto& f : r.report["findings"]) errors = errors || f.value("severity", "") == "error";
  if (r.timed_out) r.reason = "killed: still running 5 s past its --timeout";
  else if (!r.report.is_object())
    r.reason = r.exit_status == 127 ? "could not be executed"
                                    : "the program ended without starting BSPlib (no bsp_begin), exit status " +
                                          std::to_string(r.exit_status);
  else if (r.exit_status >= 128) r.reason = "killed by signal " + std::to_string(r.exit_status - 128);
  else if (r.exit_status != 0 && !errors) r.reason = "the program exited with status " + std::to_string(r.exit_status);
  r.passed = !errors && r.reason.empty() && r.exit_status == 0;
  return r;
}

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

}  // namespace

int run_command(const RunConfig& c) {
  ProgramCheck pc = check_program(c.program);
  if (!pc.error.empty()) {
    std::cerr << "bsp-check: error: " << pc.error << "\n";
    return 2;
  }
  const std::uint64_t total = c.procs.size() * c.seeds;
  const bool stream = total == 1;  // a single run shows its output live
  const bool progress = !c.quiet && !stream && isatty(STDERR_FILENO);
  int stdin_fd = stdin_for_runs();

  nlohmann::json runs = nlohmann::json::array();
  std::uint64_t done = 0, failed = 0;
  std::vector<RunOutcome> failures;
  const auto start = std::chrono::steady_clock::now();
  for (int p : c.procs) {
    for (std::uint64_t i = 0; i < c.seeds; ++i) {
      const std::uint64_t seed = c.seed + i;
      if (progress)
        std::fprintf(stderr, "\rbsp-check: run %llu/%llu (p=%d seed=%llu)...", static_cast<unsigned long long>(done + 1),
                     static_cast<unsigned long long>(total), p, static_cast<unsigned long long>(seed));
      RunOutcome r = run_once(c, pc.path, p, seed, stdin_fd, stream);
      ++done;
      runs.push_back(outcome_json(r));
      if (!stream && (c.verbose || !r.passed)) {
        if (progress) std::fputs("\r\033[K", stderr);
        std::fprintf(stderr, "==== p=%d seed=%llu: %s ====\n", p, static_cast<unsigned long long>(seed),
                     r.passed ? "ok" : "FAILED");
        std::fflush(stderr);
        std::cout << r.out << std::flush;
        std::cerr << r.err << std::flush;
      }
      if (!r.passed) {
        ++failed;
        if (!r.reason.empty())
          std::cerr << "bsp-check: error: p=" << p << " seed=" << seed << ": " << r.reason << "\n";
        failures.push_back(std::move(r));
        if (!c.keep_going) break;
      }
    }
    if (failed && !c.keep_going) break;
  }
  if (progress) std::fputs("\r\033[K", stderr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!c.json_file.empty()) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", c.program},
                        {"args", c.args},
                        {"runs", runs},
                        {"total", done},
                        {"failed", failed}};
    std::ofstream out(c.json_file);
    if (!out) {
      std::cerr << "bsp-check: error: cannot write " << c.json_file << "\n";
      return 2;
    }
    out << j.dump(2) << "\n";
  }

  if (failed == 0) {
    if (!c.quiet)
      std::fprintf(stderr, "bsp-check: %llu run%s clean (p = %s; seeds %llu..%llu) in %.1f s\n",
                   static_cast<unsigned long long>(done), done == 1 ? "" : "s", c.procs_text.c_str(),
                   static_cast<unsigned long long>(c.seed), static_cast<unsigned long long>(c.seed + c.seeds - 1), secs);
    return 0;
  }
  std::fprintf(stderr, "bsp-check: %llu of %llu run%s FAILED\n", static_cast<unsigned long long>(failed),
               static_cast<unsigned long long>(done), done == 1 ? "" : "s");
  for (const RunOutcome& r : failures)
    std::fprintf(stderr, "  reproduce: %s\n", repro_command(c, r.p, r.seed).c_str());
  return 1;
}

}  // namespace bspcheck::cli
