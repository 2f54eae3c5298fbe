// fork_server_client.hpp: the driver's side of a fork server (runtime/isolation/fork_server.hpp; the
// protocol: runtime/isolation/fork_server_protocol.hpp). The program is started once per p; at bsp_begin
// it forks a worker that makes one seed's run after another, brought back to bsp_begin after
// each, so that a run costs neither an exec and the dynamic loading nor a fork. A run it cannot
// serve (the program never reached bsp_begin, the server is gone) is reported as not served, and
// the caller runs it the usual way (tools/launch/run_launcher.hpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/isolation/fork_server_protocol.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/stdin_feed.hpp"

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
  // The whole content of a run's result file (a memfd), from its start.
  static std::string read_all(int fd);

  // Waits for the run's end (kDone); false when the server is gone first. Past `limit` seconds
  // (if >= 0) the worker is killed and *timed_out set; the server then posts how it ended.
  bool await_done(double limit, bool* timed_out);
  bool server_alive() const;

  static constexpr int kChannelFdFloor = rt::fork_protocol::kChannelFdFloor;
  pid_t pid_ = -1;
  std::optional<WatchedChild> watched_;  // destroyed after the destructor has reaped pid_
  int session_ = -1;                     // the write end of the session pipe: the server exits when it closes
  rt::fork_protocol::Channel* channel_ = nullptr;
  // A run's report, stdout and stderr: memfds a worker opens through /proc/SERVER/fd/N (its
  // stdout and stderr once, kept while its runs leave them alone; the report file only when the
  // report does not fit in the channel) and the driver empties before each run, so that a run
  // creates no file.
  int report_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
  bool report_file_used_ = true;                   // the last run's report went to the file (emptied before the next)
  int prelude_out_fd_ = -1, prelude_err_fd_ = -1;  // the server's own stdout and stderr (memfds)
  std::string prelude_, prelude_err_;
  bool prelude_read_ = false;
};

}  // namespace bspcheck::cli
