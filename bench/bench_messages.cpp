// bench_messages: what one BSMP message costs in an all-to-all exchange, at two sizes of the
// exchange (issue 47, goal 4).
//
// p = 4 processes each send m 8-byte messages to every process (itself included) in one
// superstep, sync, then read them back with bsp_qsize and bsp_move. The figure is the time from the
// end of the first superstep to the end of the reading superstep over the p * p * m messages: each
// message's send, its queueing at the barrier and its move. Issue 47 measures m = 62,500 (10^6
// messages in all: "large") against a small exchange of a few hundred (m = 25, 400 in all, timed
// over many supersteps so that the clock can see it: "small"). Goal: large within 1.5x of small.
//
// The floor of one message is its two copies (into the queue, out of it) and the one context
// switch a send's switch point costs; bench/goals.sh takes the switch from bench_switch and the
// copies from bench_comm's memcpy floor.
#include <cstdint>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"

namespace {

constexpr int kP = 4;

// Seconds per message of `rounds` exchanges of m messages per ordered pair.
double per_message(long m, long rounds, bool checks) {
  double start = 0, end = 0;
  bspcheck::Options o;
  o.procs = kP;
  o.seed = 5;
  o.checks = checks;
  o.stack_size = 64 * 1024;
  bspcheck::RunResult r = bspcheck::run(o, [&] {
    bsp_begin(kP);
    const int p = bsp_nprocs();
    bsp_sync();
    if (bsp_pid() == 0) start = bench::now_s();
    std::uint64_t sum = 0;
    for (long round = 0; round < rounds; ++round) {
      for (long i = 0; i < m; ++i) {
        const std::uint64_t v = static_cast<std::uint64_t>(i);
        for (int q = 0; q < p; ++q) bsp_send(q, nullptr, &v, 8);
      }
      bsp_sync();
      int nm = 0, nb = 0;
      bsp_qsize(&nm, &nb);
      std::uint64_t x = 0;
      for (int i = 0; i < nm; ++i) {
        bsp_move(&x, 8);
        sum += x;
      }
    }
    bench::keep(sum);
    bsp_sync();
    if (bsp_pid() == 0) end = bench::now_s();
    bsp_end();
  });
  if (!r.ok()) {
    std::fprintf(stderr, "bench_messages: run failed: %s\n", r.summary().c_str());
    std::exit(1);
  }
  return (end - start) / static_cast<double>(kP * kP * m * rounds);
}

double median_ns(long m, long rounds, bool checks) {
  std::vector<double> t;
  for (int r = 0; r < bench::reps(); ++r) t.push_back(per_message(m, rounds, checks));
  return bench::median(t) * 1e9;
}

}  // namespace

int main() {
  const long large = bench::scaled(62'500), small = 25;
  const long small_rounds = bench::scaled(2'500);
  for (bool checks : {false, true}) {
    const std::string on = checks ? "checks on" : "checks off";
    const double big = median_ns(large, 1, checks);
    const double little = median_ns(small, small_rounds, checks);
    bench::row("messages: all-to-all, large",
               "p=4, " + std::to_string(kP * kP * large) + " messages in 1 superstep, " + on, big, "%.1f", "ns/msg",
               "send + queue + move of an 8-byte message");
    bench::row("messages: all-to-all, small",
               "p=4, " + std::to_string(kP * kP * small) + " messages a superstep, " + std::to_string(small_rounds) +
                   " supersteps, " + on,
               little, "%.1f", "ns/msg", "the same per message, with the barrier shared by fewer");
    bench::row("messages: large / small", on, big / little, "%.2f", "x", "issue 47 goal 4: at most 1.5x");
  }
  return 0;
}
