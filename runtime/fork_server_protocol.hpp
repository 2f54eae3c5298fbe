// fork_server_protocol.hpp: what the driver (tools/fork_server_client.cpp) and a program's fork
// server (runtime/fork_server.cpp) say to each other; the one place of the protocol.
//
// The driver starts the program with
// BSPCHECK_FORKSERVER="REQUEST_FD,RESULT_FD[,REPORT_FD,OUT_FD,ERR_FD[,RUNS_PER_WORKER]]"
// (descriptors at or above kChannelFdFloor, out of the way of the program's own files). The
// RUN_FDs are the memfds a run's report, stdout and stderr go to: a request names them as
// /proc/SERVER_PID/fd/N, and each child closes its own copies, so that the program never sees
// them among its descriptors; it reaches them through the server, which waits for it. At bsp_begin the
// program becomes a server: per request line a child runs one seed; the server answers "pid N"
// (the child that runs it, to be killed past a time limit) and "status S" (a waitpid status)
// when the run has ended, and exits when the request pipe closes. With RUNS_PER_WORKER > 1 the
// child is a worker that runs up to that many requests in turn, brought back to bsp_begin after
// each (runtime/process_snapshot.hpp), and "pid N" comes only with a worker's first run: the
// same process makes the next ones (one wake-up of the driver less per run). Header-only: the
// driver does not link the runtime library.
#pragma once

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

// The request as one line (with its '\n'); nothing when a field holds a tab or a newline.
inline std::optional<std::string> encode(const Request& r) {
  std::string line;
  for (const std::string* f : {&r.options, &r.report, &r.out, &r.err, &r.repro}) {
    if (f->find_first_of("\t\n") != std::string::npos) return std::nullopt;
    line += (line.empty() ? "" : "\t") + *f;
  }
  return line + "\n";
}

// The fields of a request line, split in place: each points into the line, its tab replaced by
// '\0'. In place because the fork server allocates nothing while it serves: every run, forked or
// made by a worker, then starts from the same heap (runtime/fork_server.cpp).
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

// The two answers to a request.
inline constexpr const char* kPidReply = "pid ";        // + the child's pid
inline constexpr const char* kStatusReply = "status ";  // + its waitpid status

// The value after `prefix` in an answer line, or nothing.
inline std::optional<long> reply_value(const char* line, const char* prefix) {
  const std::size_t n = std::strlen(prefix);
  if (std::strncmp(line, prefix, n) != 0) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(line + n, &end, 10);
  if (end == line + n) return std::nullopt;
  return v;
}

}  // namespace bspcheck::rt::fork_protocol
