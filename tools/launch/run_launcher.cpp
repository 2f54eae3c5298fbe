#include "tools/launch/run_launcher.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "checker/binary_report.hpp"
#include "checker/finding_text.hpp"
#include "runtime/isolation/file_view.hpp"
#include "runtime/isolation/fork_server_protocol.hpp"
#include "runtime/memory_checks/asan_recovery.hpp"
#include "runtime/options/options.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/cli/reproduce_command.hpp"
#include "tools/launch/temp_files.hpp"

namespace bspcheck::cli {

namespace {

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

}  // namespace

bool is_trace_pattern(const std::string& file) {
  return file.find("%p") != std::string::npos || file.find("%s") != std::string::npos;
}

std::string trace_path(const std::string& file, int p, std::uint64_t seed) {
  std::string out;
  for (std::size_t i = 0; i < file.size(); ++i) {
    if (file[i] == '%' && i + 1 < file.size() && (file[i + 1] == 'p' || file[i + 1] == 's')) {
      out += file[i + 1] == 'p' ? std::to_string(p) : std::to_string(seed);
      ++i;
    } else {
      out += file[i];
    }
  }
  return out;
}

// BSPCHECK_OPTIONS of one run: the session's options (set from the flags through the options
// table) at this p and seed, printed by the table (runtime/options/options.def); a --trace pattern names
// this run's trace.
std::string runtime_options(const RunConfig& c, int p, std::uint64_t seed) {
  rt::ProgramOptions o = c.options;
  o.run.seed = seed;
  o.run.procs = p;
  o.run.trace_file = trace_path(o.run.trace_file, p, seed);
  return rt::format_program_options(o, rt::OptionScope::all);
}

bool own_group_for(const StdinFeed& in) { return child_gets_own_group(in.terminal()); }

// The environment every run of c shares: the driver's, with what the runtime is told through it.
ChildEnvironment run_environment(const RunConfig& c) {
  ChildEnvironment env;
  // A program built with UBSan (-fno-sanitize-recover) otherwise exits quietly at the first
  // error; aborting lets the runtime contain it as a `crash` finding naming the process.
  env.set_default("UBSAN_OPTIONS", "abort_on_error=1:print_stacktrace=1");
  // An ASan program goes on after a get-dst-early-read warning (its read is defined) and stops at
  // every other report (runtime/memory_checks/asan_recovery.hpp). Plain programs ignore it.
  env.prepend_options("ASAN_OPTIONS", rt::kAsanRecoverOptions);
  // ASan's allocator gives freed memory back to the OS when some seconds of the real clock have
  // passed since it last did, and reads the clock to know: through the C library's clock_gettime,
  // which --virtual-time makes the running process's virtual clock, one microsecond a read. A run
  // slowed by its neighbours then read its clock once more than its twin, and printed a later time
  // (a determinism check of `--virtual-time --check-determinism` failed so under load). Without
  // that timer the allocator reads no clock; a user's own setting, later in the list, still wins.
  env.prepend_options("ASAN_OPTIONS", "allocator_release_to_os_interval_ms=-1");
  if (!c.prefix.empty()) env.set("BSPCHECK_PREFIX", c.prefix);
  else env.unset("BSPCHECK_PREFIX");
  // Only a child the driver starts as a fork server is one (fork_server_client.cpp), whatever
  // the driver itself was given.
  env.unset(rt::fork_protocol::kEnvironment);
  env.unset(rt::fork_protocol::kBindNowEnvironment);
  // Each run's own view of the files it writes (runtime/isolation/file_view.hpp), unless the
  // driver's own environment forces the fallback (BSPCHECK_FILE_VIEW=refuse, docs/semantics.md).
  env.set_default(rt::kFileViewEnvironment, "private");
  if (c.file_view_required) env.set(rt::kFileViewEnvironment, rt::kFileViewRequire);
  return env;
}

// Built before fork (nothing between fork and exec may allocate: the stdin feed may have a
// thread, and a child forked while it holds the allocator's lock would deadlock in malloc); it
// points into c, which outlives every child.
std::vector<char*> program_argv(const RunConfig& c) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(c.program.c_str()));  // execve does not write through them
  for (const std::string& a : c.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

[[noreturn]] void exec_program(const char* path, char* const* argv, char* const* envp, int stdin_fd, int out_fd,
                               int err_fd, bool own_group, pid_t driver) {
  // A driver killed by SIGKILL (kill -9, an out-of-memory kill, a CI job's hard limit) cannot
  // kill its runs, and a run that never ends would spin on, orphaned, for ever: the kernel kills
  // it instead. The signal comes when the thread that forked it ends, and -j's worker threads
  // end only once their runs and fork servers are done. Checked after the prctl: the driver may
  // have died before it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != driver) _exit(127);
  restore_default_signals();
  // The same addresses in every run, as under gdb: a pointer the program sends, hashes or prints
  // (a cBSP destination a receiver tells its sender) is then what the seed reproduces, not the
  // kernel's random layout. Where the kernel refuses, the layout stays random.
  if (const int persona = personality(0xffffffff); persona != -1) personality(persona | ADDR_NO_RANDOMIZE);
  if (own_group) setpgid(0, 0);                     // one kill reaches the program and whatever it forks
  if (stdin_fd >= 0) dup2(stdin_fd, STDIN_FILENO);  // positioned by StdinFeed
  if (out_fd >= 0) dup2(out_fd, STDOUT_FILENO);
  if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
  execve(path, argv, envp);
  std::fprintf(stderr, "bsp-check: error: cannot execute %s: %s\n", path, std::strerror(errno));
  _exit(127);
}

static std::string heap_error(const std::string& err) {
  // glibc's malloc_printerr writes one of these lines straight to file descriptor 2, then aborts.
  // When the abort strikes inside bsp-check's own allocation (building the report of an earlier
  // fault, or any runtime call), the crash handler cannot run on that heap: the line is all there is.
  static const char* const kMessages[] = {"malloc(): ",
                                          "free(): ",
                                          "realloc(): ",
                                          "double free or corruption",
                                          "corrupted size vs. prev_size",
                                          "corrupted double-linked list",
                                          "munmap_chunk(): ",
                                          "malloc_consolidate(): ",
                                          "tcache_thread_shutdown(): "};
  for (std::size_t at = 0; at < err.size();) {
    std::size_t end = err.find('\n', at);
    if (end == std::string::npos) end = err.size();
    const std::string_view line(err.data() + at, end - at);
    for (const char* m : kMessages)
      if (line.substr(0, std::strlen(m)) == m) return std::string(line.substr(0, 120));
    at = end + 1;
  }
  return {};
}

void finish_outcome(RunOutcome& r, const RunConfig& c, const std::string& report_path) {
  std::string text;
  if (std::ifstream rep(report_path); rep) {
    std::stringstream ss;
    ss << rep.rdbuf();
    text = ss.str();
  }
  unlink(report_path.c_str());
  finish_outcome_from_text(r, c, text);
}

void finish_outcome_from_text(RunOutcome& r, const RunConfig& c, const std::string& report_text) {
  // A worker's report came through the channel in the binary form; a report file is JSON.
  if (checker::is_binary_report(report_text)) r.reported = checker::run_report_from_bytes(report_text, r.report);
  else if (!report_text.empty()) r.reported = checker::run_report_from_json(report_text, r.report);

  const std::string heap = r.reported ? std::string() : heap_error(r.err);  // glibc's own abort line, if any
  bool errors = false;  // findings that fail the run: errors, and with --werror warnings
  for (const Finding& f : r.report.findings) errors = errors || checker::finding_fails(f, c.options.run.werror);
  if (r.timed_out) r.reason = "killed: still running 5 s past its --timeout";
  else if (r.exit_status == 128 + SIGKILL)
    // Not bsp-check's kill (that is the timeout above): almost always the kernel's out-of-memory
    // killer, which leaves no chance to write a report.
    r.reason =
        "killed by SIGKILL, not by bsp-check: most likely the kernel's out-of-memory killer (see dmesg), "
        "else a kill -9 by the program or from outside; all p processes share one process's memory here, so "
        "lower -p or what each process allocates";
  else if (r.exit_status > 128 && r.exit_status < 128 + 65) {
    // A signal the runtime does not report: one sent from outside the program (a kill, timeout),
    // or one the program set a handler for and then died of (a self-sent one is a crash finding).
    // A report it has is the one written at its last finding (or at bsp_end): it is kept.
    const int sig = r.exit_status - 128;
    const char* abbrev = sigabbrev_np(sig);
    const char* what = strsignal(sig);
    r.reason = "killed by SIG" + (abbrev ? std::string(abbrev) : std::to_string(sig)) + " (" + (what ? what : "?") +
               (r.reported ? "), a signal bsp-check did not send: " : ") before it wrote a bsp-check report: ") +
               "a signal from outside the program (kill, timeout), or one the kernel sent it (alarm, CPU limit)";
    if (r.reported) r.reason += "; the findings it printed before are kept";
  } else if (!r.reported && r.exit_status != 127 && !heap.empty())
    r.reason = "the C library found its heap corrupt (\"" + heap +
               "\") and aborted the program before bsp-check could write its report: a process wrote past a heap "
               "block or freed one twice, at some point before; build with bspcc -fsanitize=address to be shown "
               "that write, exit status " +
               std::to_string(r.exit_status);
  else if (!r.reported)
    r.reason = r.exit_status == 127 ? "could not be executed"
                                    : "the program ended without a bsp-check report (it never called bsp_begin, or the "
                                      "runtime could not write the report), exit status " +
                                          std::to_string(r.exit_status);
  else if (r.exit_status >= 128) r.reason = "killed by signal " + std::to_string(r.exit_status - 128);
  else if (r.exit_status != 0 && !errors) r.reason = "the program exited with status " + std::to_string(r.exit_status);
  r.passed = !errors && r.reason.empty() && r.exit_status == 0;
}

std::mutex& launch_mutex() {
  static std::mutex m;
  return m;
}

RunOutcome run_once(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, StdinFeed& in,
                    bool stream) {
  RunOutcome r;
  r.p = p;
  r.seed = seed;
  // The run's report: a memfd that the program's runtime opens through /proc/DRIVER/fd/N, so that
  // a run creates no file (a driver killed by SIGKILL would leave it behind); a temporary file
  // where /proc is not mounted.
  static const bool proc_fds = access("/proc/self/fd", X_OK) == 0;
  int report_memfd = proc_fds ? memfd_create("bsp-check-report", MFD_CLOEXEC) : -1;
  // Numbered from 100: the path (and so the run's environment, and what the runtime allocates for
  // it) is as long for a run started beside another (tools/across_runs/check_run_beside.hpp),
  // which must have the same heap, as for one alone.
  if (report_memfd >= 0 && report_memfd < 100)
    if (const int high = fcntl(report_memfd, F_DUPFD_CLOEXEC, 100); high >= 0) {
      close(report_memfd);
      report_memfd = high;
    }
  std::string report_path;
  if (report_memfd >= 0) {
    report_path = "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(report_memfd);
  } else {
    report_path = temp_template("report");
    if (const int fd = mkostemp(report_path.data(), O_CLOEXEC); fd >= 0) close(fd);
  }
  int out_fd = stream ? -1 : make_memfd("bsp-check-stdout");
  int err_fd = stream ? -1 : make_memfd("bsp-check-stderr");
  const std::string options = runtime_options(c, p, seed);
  const std::string repro = repro_command(c, p, seed);

  // The run's environment and arguments, before fork (see program_argv). The shared part too: a
  // divergence is run again with another --prefix.
  ChildEnvironment env = run_environment(c);
  env.set("BSPCHECK_OPTIONS", options);
  env.set("BSPCHECK_REPORT", report_path);
  env.set("BSPCHECK_REPRO", repro);
  char* const* envp = env.envp();
  const std::vector<char*> argv = program_argv(c);

  const auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> launching(launch_mutex());
  const bool own_group = own_group_for(in);
  const std::unique_ptr<StdinFeed::Run> input = in.start_run();  // outlives the child: reaped first
  const pid_t driver = getpid();
  pid_t child = fork();
  if (child < 0) {
    std::perror("bsp-check: fork");
    std::exit(2);
  }
  if (child == 0) {
    exec_program(path.c_str(), argv.data(), envp, input->fd(), out_fd, err_fd, own_group, driver);
  }
  input->child_started();
  r.os_pid = static_cast<long>(child);
  if (own_group) setpgid(child, child);  // also here: whichever of the two runs first
  const WatchedChild watched(child, own_group);
  if (c.on_child_started) c.on_child_started(child, own_group);
  launching.unlock();

  // Wait, with a hard limit a little beyond the runtime's own timeout (which reports details).
  int status = 0;
  const double hard_limit = c.options.timeout_seconds > 0 ? c.options.timeout_seconds + 5 : 0;
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

  if (out_fd >= 0) {  // first: the outcome reads the C library's last words in it
    r.out = read_fd(out_fd);
    r.err = read_fd(err_fd);
    close(out_fd);
    close(err_fd);
  }
  if (report_memfd >= 0) {
    finish_outcome_from_text(r, c, read_fd(report_memfd));
    close(report_memfd);
  } else {
    finish_outcome(r, c, report_path);
  }
  return r;
}

}  // namespace bspcheck::cli
