// bench_switch: the cost of a process switch.
//
//  * fcontext: a bare Boost.Context jump_fcontext ping-pong between two contexts, the floor.
//  * switch_context: the runtime's own switch (runtime/context_switch.cpp: fcontext plus the
//    weak sanitizer hooks), same ping-pong. Internal API, linked from libbspcheck.so.
//  * bsp_qsize / bsp_put(0 bytes): p processes each make N calls that are switch points, with the
//    default random strategy (and round robin for comparison); ns per switch = run time /
//    RunResult.switches, ns per call = run time / (p * N). At p = 1 no switch happens: that
//    row is the pure cost of a call.
#include <boost/context/detail/fcontext.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "bench_util.hpp"
#include "bsp.h"
#include "bspcheck/bspcheck.hpp"
#include "runtime/context_switch.hpp"

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

// --- return-stack-buffer experiment ----------------------------------------------------------
//
// jump_fcontext (Boost 1.74, x86-64) leaves through `jmp *%r8`, not `ret`: the `call` into it
// pushes a return-stack-buffer entry that no `ret` consumes, so after every switch the CPU's
// return predictions are off by one and each `ret` up the resumed call chain can mispredict.
// Two variants of the same symmetric loop show the effect: both contexts call a noinline
// wrapper from the same site, which switches with (a) jump_fcontext or (b) a minimal switch
// that saves exactly what jump_fcontext saves (callee-saved registers, MXCSR, x87 control word)
// but returns with `ret`. A measurement device, not a drop-in replacement (x86-64 only).

#if defined(__x86_64__)
extern "C" void bench_swap(void** save_sp, void* load_sp);
asm(R"(
  .text
  .globl bench_swap
  .type bench_swap,@function
bench_swap:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  leaq -8(%rsp), %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  leaq 8(%rsp), %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size bench_swap,.-bench_swap

  .globl bench_swap_nofp
  .type bench_swap_nofp,@function
bench_swap_nofp:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  leaq -8(%rsp), %rsp
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  leaq 8(%rsp), %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size bench_swap_nofp,.-bench_swap_nofp
)");
extern "C" void bench_swap_nofp(void** save_sp, void* load_sp);
bool g_swap_nofp = false;

void* g_sp_host = nullptr;
void* g_sp[2] = {nullptr, nullptr};
long g_swap_iters = 0;

__attribute__((noinline)) void swap_wrapped(int self, int peer) {
  if (g_swap_nofp) bench_swap_nofp(&g_sp[self], g_sp[peer]);
  else bench_swap(&g_sp[self], g_sp[peer]);
}

template <int Self>
[[noreturn]] void swap_loop() {
  for (long i = 0; i < g_swap_iters; ++i) swap_wrapped(Self, 1 - Self);
  void* dead;
  if (g_swap_nofp) bench_swap_nofp(&dead, g_sp_host);  // A finishes first,
  else bench_swap(&dead, g_sp_host);  // and B stays suspended, discarded
  std::abort();
}

void* swap_prepare(char* top, void (*entry)()) {
  auto* sp = reinterpret_cast<void**>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15});
  *--sp = nullptr;                           // fake return address of entry: entry sees rsp % 16 == 8
  *--sp = reinterpret_cast<void*>(entry);    // where the first `ret` goes
  for (int i = 0; i < 6; ++i) *--sp = nullptr;  // rbp rbx r12 r13 r14 r15
  const std::uint64_t control = 0x1F80u | (std::uint64_t{0x037F} << 32);  // MXCSR, x87 control word
  *--sp = reinterpret_cast<void*>(control);
  return sp;
}

double ret_swap_ns(long iters, bool nofp) {
  g_swap_nofp = nofp;
  const std::size_t size = 64 * 1024;
  char* stacks = static_cast<char*>(std::malloc(2 * size));
  std::vector<double> v;
  g_swap_iters = iters;
  for (int r = 0; r < bench::reps(); ++r) {
    g_sp[0] = swap_prepare(stacks + size, &swap_loop<0>);
    g_sp[1] = swap_prepare(stacks + 2 * size, &swap_loop<1>);
    double t0 = bench::now_s();
    if (nofp) bench_swap_nofp(&g_sp_host, g_sp[0]);
    else bench_swap(&g_sp_host, g_sp[0]);
    double t1 = bench::now_s();
    v.push_back((t1 - t0) * 1e9 / (2.0 * static_cast<double>(iters)));
  }
  std::free(stacks);
  return bench::median(v);
}
#endif

fc::fcontext_t g_fc_host = nullptr;
fc::fcontext_t g_fc[2] = {nullptr, nullptr};
long g_fc_iters = 0;

// Saves the context that resumed us (t.fctx) under the slot it names (t.data).
__attribute__((noinline)) void fc_wrapped(int self, int peer) {
  fc::transfer_t t = fc::jump_fcontext(g_fc[peer], reinterpret_cast<void*>(static_cast<std::intptr_t>(self)));
  g_fc[reinterpret_cast<std::intptr_t>(t.data)] = t.fctx;
}

template <int Self>
void fc_loop(fc::transfer_t t) {
  g_fc_host = t.fctx;
  for (long i = 0; i < g_fc_iters; ++i) fc_wrapped(Self, 1 - Self);
  fc::jump_fcontext(g_fc_host, nullptr);
  std::abort();
}

double fcontext_wrapped_ns(long iters) {
  const std::size_t size = 64 * 1024;
  char* stacks = static_cast<char*>(std::malloc(2 * size));
  std::vector<double> v;
  g_fc_iters = iters;
  for (int r = 0; r < bench::reps(); ++r) {
    g_fc[0] = fc::make_fcontext(stacks + size, size, &fc_loop<0>);
    g_fc[1] = fc::make_fcontext(stacks + 2 * size, size, [](fc::transfer_t t) {
      // B's first entry: save A (who started us) before looping.
      g_fc[reinterpret_cast<std::intptr_t>(t.data)] = t.fctx;
      for (long i = 0; i < g_fc_iters; ++i) fc_wrapped(1, 0);
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

enum class Call { qsize, put0 };

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
      if (call == Call::qsize) {
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
// bench/run_all.sh --callgrind): bench_switch one qsize|put0|fcontext|switch_context P N [rr]
int one(int argc, char** argv) {
  const std::string what = argv[2];
  const int p = argc > 3 ? std::atoi(argv[3]) : 2;
  const long n = argc > 4 ? std::atol(argv[4]) : 100000;
  setenv("BENCH_REPS", "1", 1);
  if (what == "fcontext_wrapped") {
    fcontext_wrapped_ns(n);
    std::printf("switches %ld\n", 2 * n);
#if defined(__x86_64__)
  } else if (what == "ret_swap") {
    ret_swap_ns(n, argc > 5 && std::string(argv[5]) == "nofp");
    std::printf("switches %ld\n", 2 * n);
#endif
  } else if (what == "fcontext") {
    fcontext_ns_per_jump(n);
    std::printf("switches %ld\n", 2 * n);
  } else if (what == "switch_context") {
    switch_context_ns(n);
    std::printf("switches %ld\n", 2 * n);
  } else {
    const auto strategy = argc > 5 && std::string(argv[5]) == "rr" ? bspcheck::Strategy::round_robin
                                                                  : bspcheck::Strategy::random;
    CallResult c = bsp_calls(what == "qsize" ? Call::qsize : Call::put0, p, n, strategy);
    std::printf("switches %.0f calls %ld\n", c.switches_per_call * p * static_cast<double>(n), p * n);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "one") return one(argc, argv);
  const long jumps = bench::scaled(20'000'000);
  bench::row("switch: bare fcontext", "jump_fcontext ping-pong", fcontext_ns_per_jump(jumps), "%.2f",
             "ns/switch", "floor");
  bench::row("switch: fcontext, wrapped", "same-site ping-pong", fcontext_wrapped_ns(jumps), "%.2f", "ns/switch",
             "noinline wrapper around jump_fcontext");
#if defined(__x86_64__)
  bench::row("switch: ret-based swap, wrapped", "same-site ping-pong", ret_swap_ns(jumps, false), "%.2f",
             "ns/switch", "experiment: saves what jump_fcontext saves, ends in ret");
  bench::row("switch: ret-based swap, no MXCSR/x87", "same-site ping-pong", ret_swap_ns(jumps, true), "%.2f",
             "ns/switch", "experiment: callee-saved registers only");
#endif
  bench::row("switch: runtime switch_context", "same-site ping-pong", switch_context_ns(jumps), "%.2f", "ns/switch",
             "fcontext + sanitizer hooks");

  const long calls_total = bench::scaled(8'000'000);
  for (Call call : {Call::qsize, Call::put0}) {
    const std::string name = call == Call::qsize ? "switch: bsp_qsize" : "switch: bsp_put 0 bytes";
    for (int p : {1, 2, 4, 8, 64, 1000}) {
      const long n = calls_total / p;
      for (auto strategy : {bspcheck::Strategy::random, bspcheck::Strategy::round_robin}) {
        if (strategy == bspcheck::Strategy::round_robin && (p == 1 || p > 8)) continue;
        if (call == Call::put0 && strategy == bspcheck::Strategy::round_robin) continue;
        if (call == Call::put0 && p > 8) continue;
        CallResult c = bsp_calls(call, p, n, strategy);
        const std::string params = "p=" + std::to_string(p) + ", " +
                                   (strategy == bspcheck::Strategy::random ? "random" : "round-robin") +
                                   ", " + std::to_string(n) + " calls/proc";
        char note[96];
        std::snprintf(note, sizeof note, "%.2f ns/call, %.3f switches/call", c.ns_per_call, c.switches_per_call);
        if (p == 1) bench::row(name, params, c.ns_per_call, "%.2f", "ns/call", "no switches at p=1");
        else bench::row(name, params, c.ns_per_switch, "%.2f", "ns/switch", note);
      }
    }
  }
  return 0;
}
