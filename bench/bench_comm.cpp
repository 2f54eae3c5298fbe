// bench_comm: the overhead of one 8-byte bsp_put, bsp_hpput, bsp_get and bsp_send (and of
// reading the messages back with bsp_move), many per superstep; and of a bsp_put made through a
// wrapper in a header (whose stack the runtime records).
//
// p processes (default 4) each issue n = total/p operations towards pid+1 in one superstep and
// then call bsp_sync. The timed interval runs from the end of the registration superstep to the
// end of the communication superstep (both taken by whichever process resumes first after the
// barrier), so it contains the calls, their switch points, and the barrier that performs the
// writes or delivers the messages. The figure is that interval over the p * n operations.
//
// Every operation has its own 8-byte destination (a registered area of n words per process), so
// the program is correct under the checker too: overwriting an hpput destination in the same
// superstep is hp-dst-conflict. Each operation is measured with the checker off (the runtime's
// own cost) and on (the default of bsp-check run).
//
// The floor a message is measured against: its 8 bytes copied into a buffer and out again, one
// memcpy each, for p * n messages (a send's copy and a move's, with nothing else around them).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"
#include "wrapped_put.hpp"

namespace {

enum class Op { put, put_wrapped, hpput, get, send, move };

const char* name(Op op) {
  switch (op) {
    case Op::put: return "comm: bsp_put 8 B";
    case Op::put_wrapped: return "comm: bsp_put 8 B through a header wrapper";
    case Op::hpput: return "comm: bsp_hpput 8 B";
    case Op::get: return "comm: bsp_get 8 B";
    case Op::send: return "comm: bsp_send 8 B";
    default: return "comm: bsp_move 8 B";
  }
}

// Timestamps taken by the first process to return from the k-th bsp_sync.
std::vector<double> g_stamp;
int g_seen = 0;
double g_presync = 0;  // set by every process just before the timed bsp_sync: the last one wins

void stamp(int step) {
  if (g_seen < step) {
    g_seen = step;
    g_stamp[static_cast<std::size_t>(step)] = bench::now_s();
  }
}

struct Times {
  double total, barrier;
};

Times run_once(Op op, int p, long n, std::uint64_t seed, bool checks) {
  g_stamp.assign(8, 0.0);
  g_seen = 0;
  bspcheck::Options o;
  o.procs = p;
  o.seed = seed;
  o.stack_size = 64 * 1024;
  o.checks = checks;
  bspcheck::RunResult res = bspcheck::run(o, [op, n] {
    bsp_begin(bsp_nprocs());
    const int p = bsp_nprocs(), to = (bsp_pid() + 1) % p;
    const auto slots = static_cast<std::size_t>(n);
    std::vector<std::uint64_t> area(slots, 1), local(slots, 2);
    bsp_push_reg(area.data(), static_cast<int>(slots * 8));
    int zero = 0;
    bsp_set_tagsize(&zero);
    bsp_sync();
    stamp(1);
    const std::uint64_t v = 42;
    switch (op) {
      case Op::put:
        for (long i = 0; i < n; ++i) bsp_put(to, &v, area.data(), static_cast<int>(i * 8), 8);
        break;
      case Op::put_wrapped:
        for (long i = 0; i < n; ++i) wrapped_put(to, &v, area.data(), static_cast<int>(i * 8), 8);
        break;
      case Op::hpput:
        for (long i = 0; i < n; ++i) bsp_hpput(to, &v, area.data(), static_cast<int>(i * 8), 8);
        break;
      case Op::get:
        for (long i = 0; i < n; ++i) bsp_get(to, area.data(), static_cast<int>(i * 8), &local[static_cast<std::size_t>(i)], 8);
        break;
      case Op::send:
      case Op::move:
        for (long i = 0; i < n; ++i) bsp_send(to, nullptr, &v, 8);
        break;
    }
    g_presync = bench::now_s();
    bsp_sync();
    stamp(2);
    if (op == Op::move) {
      int nm = 0, nb = 0;
      bsp_qsize(&nm, &nb);
      std::uint64_t x = 0, sum = 0;
      for (int i = 0; i < nm; ++i) {
        bsp_move(&x, 8);
        sum += x;
      }
      bench::keep(sum);
      bsp_sync();
      stamp(3);
    }
    bsp_pop_reg(area.data());
    bsp_end();
  });
  if (!res.ok()) {
    std::fprintf(stderr, "bench_comm: run failed: %s\n", res.summary().c_str());
    std::exit(1);
  }
  if (op == Op::move) return {g_stamp[3] - g_stamp[2], 0};
  return {g_stamp[2] - g_stamp[1], g_stamp[2] - g_presync};
}

}  // namespace

// Nanoseconds per message of the memcpy floor (see the top of the file), median of reps().
double memcpy_floor_ns(long messages) {
  const auto m = static_cast<std::size_t>(messages);
  std::vector<std::uint64_t> src(m), buffer(2 * m), dst(m);  // 16-byte slots, as the message arena's
  for (std::size_t i = 0; i < m; ++i) src[i] = i;
  std::vector<double> times;
  for (int r = 0; r < bench::reps(); ++r) {
    const double t0 = bench::now_s();
    for (std::size_t i = 0; i < m; ++i) std::memcpy(&buffer[2 * i], &src[i], 8);
    bench::keep(buffer);
    for (std::size_t i = 0; i < m; ++i) std::memcpy(&dst[i], &buffer[2 * i], 8);
    bench::keep(dst);
    times.push_back(bench::now_s() - t0);
  }
  return bench::median(times) * 1e9 / static_cast<double>(messages);
}

int main(int argc, char** argv) {
  const int p = argc > 1 ? std::atoi(argv[1]) : 4;
  const long total = bench::scaled(1'000'000);
  const long n = total / p;
  bench::row("comm: memcpy floor 8 B", std::to_string(n * p) + " messages", memcpy_floor_ns(n * p), "%.2f", "ns/op",
             "8 bytes copied in and out per message, the floor of a bsp_send + bsp_move");
  for (bool checks : {false, true}) {
    for (Op op : {Op::put, Op::put_wrapped, Op::hpput, Op::get, Op::send, Op::move}) {
      std::vector<double> total_s, barrier_s;
      for (int r = 0; r < bench::reps(); ++r) {
        Times t = run_once(op, p, n, 77 + static_cast<std::uint64_t>(r), checks);
        total_s.push_back(t.total);
        barrier_s.push_back(t.barrier);
      }
      const double ops = static_cast<double>(n) * p;
      const double ns = bench::median(total_s) * 1e9 / ops;
      char note[128];
      if (op == Op::move) std::snprintf(note, sizeof note, "bsp_move loop after bsp_qsize, plus one empty barrier");
      else std::snprintf(note, sizeof note, "of which barrier %.1f ns/op", bench::median(barrier_s) * 1e9 / ops);
      bench::row(name(op), "p=" + std::to_string(p) + ", " + std::to_string(n * p) + " ops in 1 superstep, checks " +
                               (checks ? "on" : "off"),
                 ns, "%.1f", "ns/op", note);
    }
  }
  return 0;
}
