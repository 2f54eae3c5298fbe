// fork_server_protocol.hpp: what the driver (tools/fork_server_client.cpp) and a program's fork
// server (runtime/fork_server.cpp) say to each other; the one place of the protocol.
//
// The driver starts the program with BSPCHECK_FORKSERVER="REQUEST_FD,RESULT_FD[,RUN_FD...]"
// (descriptors at or above kChannelFdFloor, out of the way of the program's own files). The
// RUN_FDs are the memfds a run's report, stdout and stderr go to: a request names them as
// /proc/SERVER_PID/fd/N, and each child closes its own copies, so that the program never sees
// them among its descriptors; it reaches them through the server, which waits for it. At bsp_begin the
// program becomes a server: per request line it forks a child that runs one seed, answers
// "pid N" at once and "status S" (a waitpid status) when the child has ended, and exits when
// the request pipe closes. Header-only: the driver does not link the runtime library.
#pragma once

#include <cstdio>
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

// A request line (without its '\n'); nothing when it is not one.
inline std::optional<Request> decode(const std::string& line) {
  std::vector<std::string> f;
  for (std::size_t start = 0;;) {
    const std::size_t tab = line.find('\t', start);
    f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  if (f.size() != 5) return std::nullopt;
  return Request{f[0], f[1], f[2], f[3], f[4]};
}

// The two answers to a request.
inline constexpr const char* kPidReply = "pid ";        // + the child's pid
inline constexpr const char* kStatusReply = "status ";  // + its waitpid status

// The value after `prefix` in an answer line, or nothing.
inline std::optional<long> reply_value(const std::string& line, const char* prefix) {
  const std::string p = prefix;
  if (line.rfind(p, 0) != 0) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(line.c_str() + p.size(), &end, 10);
  if (end == line.c_str() + p.size()) return std::nullopt;
  return v;
}

}  // namespace bspcheck::rt::fork_protocol
