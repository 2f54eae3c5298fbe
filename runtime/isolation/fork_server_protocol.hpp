// fork_server_protocol.hpp: what the driver (tools/launch/fork_server_client.cpp) and a program's fork
// server (runtime/isolation/fork_server.cpp) say to each other; the one place of the protocol.
//
// The driver starts the program with
// BSPCHECK_FORKSERVER="SESSION_FD,CHANNEL_FD,REPORT_FD,OUT_FD,ERR_FD,RUNS_PER_WORKER"
// (descriptors at or above kChannelFdFloor, out of the way of the program's own files):
// - SESSION_FD: the read end of a pipe the driver holds open for the session and never writes;
//   the server exits when it closes.
// - CHANNEL_FD: a memfd holding one Channel, shared by the driver, the server and its worker.
// - REPORT_FD, OUT_FD, ERR_FD: the memfds a run's report, stdout and stderr go to. A request
//   names them as /proc/SERVER_PID/fd/N, and each worker closes its own copies, so that the
//   program never sees them among its descriptors; it reaches them through the server. A
//   worker opens the output files once and keeps them on stdout and stderr while its runs leave
//   them alone (the driver empties them for each run); a report goes into the channel (binary)
//   when it fits, and into the report file (JSON) otherwise.
//
// At bsp_begin the program becomes a server. It forks a worker, which waits on the channel; the
// driver puts a request there and the worker runs it, says kDone with its status, is brought
// back to bsp_begin (runtime/isolation/process_snapshot.hpp) and waits for the next. One wake-up each way
// per run: the server is not woken by a run that ends normally. It waits for the worker's end
// instead: a worker that ended during a run (crashed, exited, was killed past --timeout) has its
// waitpid status posted by the server as the run's; one that retired (after RUNS_PER_WORKER
// runs, or after a run it could not undo) or died between runs is replaced by a fresh one, which
// takes any request waiting. RUNS_PER_WORKER = 1 gives every run a fresh child that saves
// nothing, as before workers existed. Header-only: the driver does not link the runtime library.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace bspcheck::rt::fork_protocol {

inline constexpr const char* kEnvironment = "BSPCHECK_FORKSERVER";
// Set with LD_BIND_NOW when the driver added LD_BIND_NOW for the server only: the server removes
// both, so the program sees the environment it was given.
inline constexpr const char* kBindNowEnvironment = "BSPCHECK_FORKSERVER_BIND_NOW";
// The lowest descriptor number of the server's channel in the program.
inline constexpr int kChannelFdFloor = 100;

// One run: its BSPCHECK_OPTIONS, where its report, stdout and stderr go, and its reproduce line.
struct Request {
  std::string options, report, out, err, repro;
};

// The request as one line (without a '\n'); nothing when a field holds a tab or a newline.
inline std::optional<std::string> encode(const Request& r) {
  std::string line;
  for (const std::string* f : {&r.options, &r.report, &r.out, &r.err, &r.repro}) {
    if (f->find_first_of("\t\n") != std::string::npos) return std::nullopt;
    line += (line.empty() ? "" : "\t") + *f;
  }
  return line;
}

// The fields of a request line, split in place: each points into the line, its tab replaced by
// '\0'. In place because the fork server allocates nothing while it serves: every run, forked or
// made by a worker, then starts from the same heap (runtime/isolation/fork_server.cpp).
struct RequestFields {
  const char *options, *report, *out, *err, *repro;
};

// Splits a request line (without its '\n'); false when it is not one.
inline bool decode_in_place(char* line, RequestFields& r) {
  const char** fields[5] = {&r.options, &r.report, &r.out, &r.err, &r.repro};
  int n = 0;
  for (char* at = line;; ++at) {
    if (n == 5) return false;
    *fields[n++] = at;
    while (*at && *at != '\t') ++at;
    if (!*at) break;
    *at = '\0';
  }
  return n == 5;
}

// How many runs one forked worker makes before the server forks a fresh one (the driver's default).
inline constexpr int kRunsPerWorker = 1000;

// --- the channel ---------------------------------------------------------------------------------
// A shared mapping, not a pipe or socket: a descriptor would be one more thing the program's
// runs see in a worker and not in a fresh process (a program listing its descriptors, or the
// sockets it has, would print something else). The driver and the worker wait on its state word
// with futexes, never both at once; the server waits for the worker's end instead.

// The state word changes only from kRequest to kDone during a run, so the driver waits once.
enum ChannelState : std::uint32_t {
  kIdle,     // no request yet
  kRequest,  // the driver put a request (a worker that takes it sets `taken`)
  kDone,     // the run ended: status holds how
  kQuit,     // the session ends: a waiting worker exits
};

struct Channel {
  std::atomic<std::uint32_t> state;
  std::atomic<std::int32_t> taken;  // kRequest: 1 once a worker runs it (0 as the driver posts it)
  std::int32_t status;              // kDone: the run's waitpid-style status
  std::int32_t worker_pid;          // the server's worker of the moment (the driver kills it past --timeout)
  std::int32_t reusable;            // 0 once a worker could not save bsp_begin: later ones do not try
  std::int32_t worker_runs;         // runs the current worker has made
  // kDone: 0, or the errno with which the worker failed to begin the run it took (its output
  // files would not open, the request would not decode): the program never ran, and the driver
  // runs it the usual way instead of reporting the worker's exit as the run's.
  std::int32_t begin_errno;
  // kDone: the run's report, in its binary form (checker/binary_report.hpp), is `report`'s first
  // report_bytes bytes; -1 (as the driver posts a request): it is in the report file (JSON), or
  // there is none. A report larger than `report` goes to the file.
  std::atomic<std::int32_t> report_bytes;
  char request[1 << 16];  // kRequest: the request line, '\0'-terminated
  char decoded[1 << 16];  // the worker's copy, split in place (the program's data would be
                          // saved and restored for every run)
  char report[1 << 20];   // pages of the memfd are made as they are first written
};

inline long futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t seen, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, seen, timeout, nullptr, 0);
}

// Sets the state and wakes whoever waits for it.
inline void post(Channel& c, ChannelState s) {
  c.state.store(s, std::memory_order_release);
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&c.state), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace bspcheck::rt::fork_protocol
