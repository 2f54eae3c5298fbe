// run_launcher.hpp: one run of the program at (p, seed), started anew (fork + exec): its
// environment, its standard streams, the wait with a hard time limit, and the reading of the
// report the runtime wrote (checker/finding_codec.hpp) into an outcome: passed, or why not.
// tools/launch/fork_server_client.hpp runs the same runs by forking them from a server instead.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "checker/finding_codec.hpp"
#include "tools/launch/child_environment.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

struct RunOutcome {
  int p = 0;
  std::uint64_t seed = 0;
  int exit_status = 0;  // of the program; 128+signal when killed
  bool timed_out = false;
  bool passed = false;
  double seconds = 0;
  bool reported = false;  // the runtime wrote its report
  checker::RunReport report;
  std::string out, err;  // captured output (when not streamed)
  std::string reason;    // one line when the run failed without a finding
  long os_pid = 0;       // the program's OS process id, when started anew (0: forked by a server)
};

// Held from starting a run's standard input to its fork: with -j, worker threads start runs
// and fork servers, and the driver's standard input (tools/launch/stdin_feed.hpp) is one for them all.
std::mutex& launch_mutex();

// BSPCHECK_OPTIONS of one run (runtime/options/options.def prints it).
std::string runtime_options(const RunConfig& c, int p, std::uint64_t seed);

// --trace FILE for the run (p, seed): FILE, with %p replaced by p and %s by the seed (a pattern
// gives each run of a session its own trace, e.g. for `bsp-check show` over many seeds).
std::string trace_path(const std::string& file, int p, std::uint64_t seed);
bool is_trace_pattern(const std::string& file);

// The environment every run of c shares: the driver's own with the runtime's variables, built
// before fork (tools/launch/child_environment.hpp); a run adds its own.
ChildEnvironment run_environment(const RunConfig& c);
// The program's argument vector for execve, built before fork; it points into c.
std::vector<char*> program_argv(const RunConfig& c);
// Does a child started with this standard input lead its own process group (tools/launch/interrupt.hpp)?
bool own_group_for(const StdinFeed& in);
// In a child forked by `driver` (its getpid() before fork): standard input from its start, output
// to out_fd/err_fd (when >= 0), and exec of the program with the environment envp. The child dies
// with the driver (see the definition). Allocates nothing. Does not return.
[[noreturn]] void exec_program(const char* path, char* const* argv, char* const* envp, int stdin_fd, int out_fd,
                               int err_fd, bool own_group, pid_t driver);

// Reads the runtime's report of a finished run (and removes the file) and decides whether the
// run passed.
void finish_outcome(RunOutcome& r, const RunConfig& c, const std::string& report_path);
// The same with the report already read: JSON, or the binary form a worker hands over through
// the channel (checker/binary_report.hpp); "" when the runtime wrote none.
void finish_outcome_from_text(RunOutcome& r, const RunConfig& c, const std::string& report_text);

// Runs the program once; its output is captured unless `stream` (then it goes to the terminal).
RunOutcome run_once(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, StdinFeed& in, bool stream);

}  // namespace bspcheck::cli
