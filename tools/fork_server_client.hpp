// fork_server_client.hpp: the driver's side of a fork server (runtime/fork_server.hpp; the
// protocol: runtime/fork_server_protocol.hpp). The program is started once per p and forks a
// child per seed at bsp_begin, so that a run costs a fork instead of an exec and the dynamic
// loading. A run it cannot serve (the program never reached bsp_begin, the server is gone) is
// reported as not served, and the caller runs it the usual way (tools/run_launcher.hpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/fork_server_protocol.hpp"
#include "tools/interrupt.hpp"
#include "tools/run_config.hpp"
#include "tools/run_launcher.hpp"
#include "tools/stdin_feed.hpp"

namespace bspcheck::cli {

class ForkServer {
 public:
  ForkServer() = default;
  ForkServer(const ForkServer&) = delete;
  ForkServer& operator=(const ForkServer&) = delete;
  ~ForkServer();

  // Starts the program as a server for runs with p processors; false when it cannot be started.
  bool start(const RunConfig& c, const std::string& path, int p, StdinFeed& in);

  // One run through the server; false when the server is gone (the caller runs it the usual way).
  bool run(const RunConfig& c, int p, std::uint64_t seed, RunOutcome& r);

 private:
  // Writes a request to the server. A program that never reaches bsp_begin never serves: it may
  // have exited already, and the write to its closed pipe raises SIGPIPE, which would kill
  // bsp-check itself. SIGPIPE is blocked around the write (not ignored: programs inherit an
  // ignored signal through exec) and a pending one is taken; the caller then runs the program
  // the usual way.
  bool write_request(const std::string& request);

  static std::string slurp(const std::string& path);
  // The whole content of a run's result file (a memfd), from its start.
  static std::string read_all(int fd);

  // Reads one line from the server; false on EOF or when `timeout` seconds (if >= 0) pass.
  bool read_line(std::string& line, double timeout);

  static constexpr int kChannelFdFloor = rt::fork_protocol::kChannelFdFloor;
  pid_t pid_ = -1;
  pid_t run_child_ = -1;  // the server's child that makes the runs now (a worker makes many)
  std::optional<WatchedChild> watched_;  // destroyed after the destructor has reaped pid_
  int req_ = -1, res_ = -1;
  // A run's report, stdout and stderr: memfds the server's children reopen through
  // /proc/self/fd/N and the driver empties before each run, so that a run creates no file.
  int report_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
  std::string dir_, buffer_, prelude_, prelude_err_;
  bool prelude_read_ = false;
};

}  // namespace bspcheck::cli
