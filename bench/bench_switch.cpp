// bench_switch: the cost of a process switch.
//
//  * fcontext: a bare Boost.Context jump_fcontext ping-pong between two contexts, the floor.
//  * fcontext, wrapped: the same through a noinline wrapper, entering jump_fcontext with a plain
//    call and with the runtime's fcontext_jump (the return-stack-buffer effect, below).
//  * switch_context: the runtime's own switch (runtime/fibers/context_switch.hpp), same ping-pong.
//    Internal API, inline in the header.
//  * bsp_qsize / bsp_put(0 bytes): p processes each make N calls that are switch points, with the
//    default random strategy (and round robin for comparison). At p = 1 no switch happens: that
//    row is the pure cost of a call. For p > 1 the figure is what a switch adds to a call:
//    (ns/call - ns/call at p = 1) / (switches per call); the notes give ns per call and the
//    cruder run time / switches.
#include <boost/context/detail/fcontext.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"
#include "runtime/fibers/context_switch.hpp"

namespace fc = boost::context::detail;

namespace {

// --- bare fcontext ---------------------------------------------------------------------------

void pong(fc::transfer_t t) {
  for (;;) t = fc::jump_fcontext(t.fctx, nullptr);
}

double fcontext_ns_per_jump(long iters) {
  const std::size_t size = 64 * 1024;
  void* stack = std::malloc(size);
  std::vector<double> v;
  for (int r = 0; r < bench::reps(); ++r) {
    fc::fcontext_t ctx = fc::make_fcontext(static_cast<char*>(stack) + size, size, &pong);
    double t0 = bench::now_s();
    for (long i = 0; i < iters; ++i) ctx = fc::jump_fcontext(ctx, nullptr).fctx;
    double t1 = bench::now_s();
    v.push_back((t1 - t0) * 1e9 / (2.0 * static_cast<double>(iters)));  // two jumps per round trip
  }
  std::free(stack);
  return bench::median(v);
}

// --- return-stack-buffer effect --------------------------------------------------------------
//
// jump_fcontext (Boost 1.74, x86-64) leaves through `jmp *%r8`, not `ret`: a plain `call` into it
// pushes a return-stack-buffer entry that no `ret` consumes, so after every switch each `ret` up
// the resumed call chain is predicted one frame off. Two contexts run the same loop, which
// calls a noinline wrapper that switches (a) with a plain call of jump_fcontext, (b) with the
// runtime's fcontext_jump, which enters jump_fcontext without a `call` (runtime/fibers/fcontext_jump.hpp).
// With (b) the wrapper's `ret` is predicted; with (a) it is not.

fc::fcontext_t g_fc_host = nullptr;
fc::fcontext_t g_fc[2] = {nullptr, nullptr};
long g_fc_iters = 0;
bool g_fc_balanced = false;

// Saves the context that resumed us (t.fctx) under the slot it names (t.data).
__attribute__((noinline)) void fc_wrapped(int self, int peer) {
  void* data = reinterpret_cast<void*>(static_cast<std::intptr_t>(self));
  fc::transfer_t t = g_fc_balanced ? bspcheck::rt::fcontext_jump(g_fc[peer], data) : fc::jump_fcontext(g_fc[peer], data);
  g_fc[reinterpret_cast<std::intptr_t>(t.data)] = t.fctx;
}

// The loop both contexts run, so that their call chains (and return addresses) are the same.
__attribute__((noinline)) void fc_body(int self) {
  for (long i = 0; i < g_fc_iters; ++i) fc_wrapped(self, 1 - self);
}

double fcontext_wrapped_ns(long iters, bool balanced) {
  const std::size_t size = 64 * 1024;
  char* stacks = static_cast<char*>(std::malloc(2 * size));
  std::vector<double> v;
  g_fc_iters = iters;
  g_fc_balanced = balanced;
  for (int r = 0; r < bench::reps(); ++r) {
    g_fc[0] = fc::make_fcontext(stacks + size, size, [](fc::transfer_t t) {
      g_fc_host = t.fctx;
      fc_body(0);
      fc::jump_fcontext(g_fc_host, nullptr);  // A finishes first; B stays suspended, discarded
      std::abort();
    });
    g_fc[1] = fc::make_fcontext(stacks + 2 * size, size, [](fc::transfer_t t) {
      g_fc[reinterpret_cast<std::intptr_t>(t.data)] = t.fctx;  // save A, who started us
      fc_body(1);
      std::abort();  // never reached: A finishes first
    });
    double t0 = bench::now_s();
    fc::jump_fcontext(g_fc[0], nullptr);
    double t1 = bench::now_s();
    v.push_back((t1 - t0) * 1e9 / (2.0 * static_cast<double>(iters)));
  }
  std::free(stacks);
  return bench::median(v);
}

// --- the runtime's switch_context ------------------------------------------------------------
//
// Two contexts A and B run the same loop and switch to each other from the same call site, as
// processes calling the same primitive do; the host starts A and is resumed when A is done. (A
// ping-pong between two different call sites would also pay a mispredicted return per switch.)

namespace rt = bspcheck::rt;
rt::ContextSlot g_host, g_a, g_b;
long g_iters = 0;

void loop_entry(void* arg) {
  rt::ContextSlot& self = arg ? g_a : g_b;
  rt::ContextSlot& peer = arg ? g_b : g_a;
  for (long i = 0; i < g_iters; ++i) rt::switch_context(self, peer);
  rt::exit_context(self, g_host);  // A finishes first; B stays suspended and is discarded
}

double switch_context_ns(long iters) {
  const std::size_t size = 64 * 1024;
  char* stacks = static_cast<char*>(std::malloc(2 * size));
  std::vector<double> v;
  g_iters = iters;
  for (int r = 0; r < bench::reps(); ++r) {
    rt::make_context(g_a, stacks + size, size, &loop_entry, &g_a);
    rt::make_context(g_b, stacks + 2 * size, size, &loop_entry, nullptr);
    double t0 = bench::now_s();
    rt::switch_context(g_host, g_a);
    double t1 = bench::now_s();
    v.push_back((t1 - t0) * 1e9 / (2.0 * static_cast<double>(iters)));  // A and B each switch iters times
    rt::destroy_context(g_a);
    rt::destroy_context(g_b);
  }
  std::free(stacks);
  return bench::median(v);
}

// --- BSPlib calls ----------------------------------------------------------------------------

// qsize and put0: every process makes the same call. mixed: even pids call bsp_qsize and odd
// pids bsp_put, so a switch usually lands in a process at a different call site, whose return
// addresses the CPU cannot predict from the process that switched away.
enum class Call { qsize, put0, mixed };

struct CallResult {
  double ns_per_switch, ns_per_call, switches_per_call;
};

CallResult bsp_calls(Call call, int p, long n, bspcheck::Strategy strategy) {
  std::vector<double> per_switch, per_call;
  double spc = 0;
  for (int r = 0; r < bench::reps(); ++r) {
    bspcheck::Options o;
    o.procs = p;
    o.seed = 1000 + static_cast<std::uint64_t>(r);
    o.strategy = strategy;
    o.stack_size = 64 * 1024;
    double t0 = bench::now_s();
    bspcheck::RunResult res = bspcheck::run(o, [n, call] {
      bsp_begin(bsp_nprocs());
      int nm = 0, nb = 0;
      if (call == Call::qsize || (call == Call::mixed && bsp_pid() % 2 == 0)) {
        for (long i = 0; i < n; ++i) bsp_qsize(&nm, &nb);
      } else {
        static char dummy;
        for (long i = 0; i < n; ++i) bsp_put(0, &dummy, &dummy, 0, 0);  // 0 bytes: no transfer
      }
      bench::keep(nm);
      bsp_end();
    });
    double t1 = bench::now_s();
    if (!res.ok()) {
      std::fprintf(stderr, "bench_switch: run failed: %s\n", res.summary().c_str());
      std::exit(1);
    }
    const double ns = (t1 - t0) * 1e9;
    const double calls = static_cast<double>(p) * static_cast<double>(n);
    per_switch.push_back(res.switches ? ns / static_cast<double>(res.switches) : 0);
    per_call.push_back(ns / calls);
    spc = static_cast<double>(res.switches) / calls;
  }
  return {bench::median(per_switch), bench::median(per_call), spc};
}

}  // namespace

// One configuration, once, for instruction counting under valgrind --tool=callgrind (see
// bench/run_all.sh --callgrind): bench_switch one qsize|put0|mixed|fcontext|fcontext_wrapped|fcontext_balanced|switch_context P N [rr]
int one(int argc, char** argv) {
  const std::string what = argv[2];
  const int p = argc > 3 ? std::atoi(argv[3]) : 2;
  const long n = argc > 4 ? std::atol(argv[4]) : 100000;
  setenv("BENCH_REPS", "1", 1);
  if (what == "fcontext_wrapped" || what == "fcontext_balanced") {
    fcontext_wrapped_ns(n, what == "fcontext_balanced");
    std::printf("switches %ld\n", 2 * n);
  } else if (what == "fcontext") {
    fcontext_ns_per_jump(n);
    std::printf("switches %ld\n", 2 * n);
  } else if (what == "switch_context") {
    switch_context_ns(n);
    std::printf("switches %ld\n", 2 * n);
  } else {
    const auto strategy = argc > 5 && std::string(argv[5]) == "rr" ? bspcheck::Strategy::round_robin
                                                                  : bspcheck::Strategy::random;
    const Call call = what == "qsize" ? Call::qsize : what == "mixed" ? Call::mixed : Call::put0;
    CallResult c = bsp_calls(call, p, n, strategy);
    std::printf("switches %.0f calls %ld\n", c.switches_per_call * p * static_cast<double>(n), p * n);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "one") return one(argc, argv);
  const long jumps = bench::scaled(20'000'000);
  bench::row("switch: bare fcontext", "jump_fcontext ping-pong", fcontext_ns_per_jump(jumps), "%.2f",
             "ns/switch", "floor");
  bench::row("switch: fcontext, wrapped, call", "same-site ping-pong", fcontext_wrapped_ns(jumps, false), "%.2f",
             "ns/switch", "noinline wrapper, plain call of jump_fcontext: its ret mispredicts");
  bench::row("switch: fcontext, wrapped, fcontext_jump", "same-site ping-pong", fcontext_wrapped_ns(jumps, true),
             "%.2f", "ns/switch", "the same wrapper entering jump_fcontext without a call");
  bench::row("switch: runtime switch_context", "same-site ping-pong", switch_context_ns(jumps), "%.2f", "ns/switch",
             "inline fast path: fcontext_jump, no sanitizer present");

  const long calls_total = bench::scaled(8'000'000);
  double base_ns_per_call[3] = {0, 0, 0};  // per Call: the call without a switch (p = 1)
  for (Call call : {Call::qsize, Call::put0, Call::mixed}) {
    const std::string name = call == Call::qsize  ? "switch: bsp_qsize"
                             : call == Call::put0 ? "switch: bsp_put 0 bytes"
                                                  : "switch: mixed qsize/put";
    for (int p : {1, 2, 4, 8, 64, 1000}) {
      // mixed has no p = 1 row of its own: half its calls are each kind.
      if (call == Call::mixed && p == 1) {
        base_ns_per_call[2] = (base_ns_per_call[0] + base_ns_per_call[1]) / 2;
        continue;
      }
      const long n = calls_total / p;
      for (auto strategy : {bspcheck::Strategy::random, bspcheck::Strategy::round_robin}) {
        if (strategy == bspcheck::Strategy::round_robin && (p == 1 || p > 8)) continue;
        if (call == Call::put0 && strategy == bspcheck::Strategy::round_robin) continue;
        if (call != Call::qsize && p > 8) continue;
        CallResult c = bsp_calls(call, p, n, strategy);
        const std::string params = "p=" + std::to_string(p) + ", " +
                                   (strategy == bspcheck::Strategy::random ? "random" : "round-robin") +
                                   ", " + std::to_string(n) + " calls/proc";
        if (p == 1) {
          base_ns_per_call[static_cast<int>(call)] = c.ns_per_call;
          bench::row(name, params, c.ns_per_call, "%.2f", "ns/call", "no switches at p=1");
          continue;
        }
        // What a switch adds to a call: (ns/call - ns/call at p=1) / switches per call.
        const double marginal = (c.ns_per_call - base_ns_per_call[static_cast<int>(call)]) / c.switches_per_call;
        char note[128];
        std::snprintf(note, sizeof note, "%.2f ns/call, %.3f switches/call; run time/switches %.2f ns",
                      c.ns_per_call, c.switches_per_call, c.ns_per_switch);
        bench::row(name, params, marginal, "%.2f", "ns/switch", note);
      }
    }
  }
  return 0;
}
