// bspk_property_test.cpp: property tests of BSPk on the local-sync engine (docs/bspk.md).
//
// rapidcheck generates random BSPk programs as data: p in 1..8, the schedule seed, and a few
// supersteps, each ended by a barrier (no announcement), bspk_expect or bspk_will_send with the
// right counts; in each, random sends (bspk_send of a one-element region) and stores (bspk_copy
// into element k of the receiver's region "in", looked up by name) between random processes.
//
//   Bspk.RightCountsDeliverEveryMessageOnce  the run is clean; every store's value is in its
//                                            element; every process receives, in the superstep
//                                            after, exactly the values sent to it (as multisets)
//                                            with the right sender ids
//   Bspk.WrongCountIsAlwaysReported          one process's bspk_expect of one superstep raised or
//                                            lowered is always reported as bspk-count-mismatch
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <bspk.h>
#include <bspcheck/bspcheck.hpp>

#include <algorithm>
#include <vector>

namespace {

struct Op {
  int src, dst;
  bool store;
};
struct Step {
  int announce;  // 0: barrier, 1: bspk_expect, 2: bspk_will_send
  std::vector<Op> ops;
};
struct Program {
  int p;
  std::uint64_t seed;
  std::vector<Step> steps;
};

rc::Gen<Program> genProgram() {
  return rc::gen::mapcat(rc::gen::inRange(1, 9), [](int p) {
    auto op = rc::gen::construct<Op>(rc::gen::inRange(0, p), rc::gen::inRange(0, p), rc::gen::arbitrary<bool>());
    auto step = rc::gen::construct<Step>(rc::gen::inRange(0, 3), rc::gen::resize(12, rc::gen::container<std::vector<Op>>(op)));
    return rc::gen::construct<Program>(rc::gen::just(p), rc::gen::arbitrary<std::uint64_t>(),
                                       rc::gen::resize(5, rc::gen::container<std::vector<Step>>(step)));
  });
}

long value_of(std::size_t id) { return static_cast<long>(id) * 1000 + 7; }

struct Observed {
  std::vector<std::vector<long>> in;                     // per process: its "in" region at the end
  std::vector<std::vector<std::vector<long>>> received;  // per step, per process: values received after it
  std::vector<std::vector<std::vector<int>>> senders;
};

// Messages (sends and stores to another process) that process q receives in step s.
int incoming(const Step& st, int q) {
  int n = 0;
  for (const Op& op : st.ops) n += op.dst == q && (!op.store || op.src != q);
  return n;
}

bspcheck::RunResult runProgram(const Program& prog, Observed& o, int who = -1, std::size_t at = 0, int delta = 0) {
  std::size_t nops = 0;
  for (const Step& s : prog.steps) nops += s.ops.size();
  const auto P = static_cast<std::size_t>(prog.p);
  o.in.assign(P, std::vector<long>(nops, 0));
  o.received.assign(prog.steps.size(), std::vector<std::vector<long>>(P));
  o.senders.assign(prog.steps.size(), std::vector<std::vector<int>>(P));
  bspcheck::Options opt;
  opt.procs = prog.p;
  opt.seed = prog.seed;
  return bspcheck::run(opt, [&] {
    bsp_begin(prog.p);
    const int me = bsp_pid();
    const auto meu = static_cast<std::size_t>(me);
    bspk_ptr in = bspk_malloc("in", me, static_cast<long>(nops) + 1, sizeof(long));
    std::vector<bspk_ptr> peers;
    for (int q = 0; q < prog.p; ++q) peers.push_back(bspk_lookup("in", q));
    bspk_sync();
    std::vector<bspk_ptr> outs;
    std::size_t id = 0;
    for (std::size_t s = 0; s < prog.steps.size(); ++s) {
      const Step& st = prog.steps[s];
      std::vector<int> will(P, 0);
      for (const Op& op : st.ops) {
        if (op.src == me) {
          bspk_ptr out = bspk_malloc("", 0, 1, sizeof(long));
          *static_cast<long*>(bspk_elemP(out)) = value_of(id);
          if (op.store) bspk_copy(bspk_incr(peers[static_cast<std::size_t>(op.dst)], static_cast<long>(id)), out, 1);
          else bspk_send(op.dst, out, 1);
          if (op.dst != me || !op.store) ++will[static_cast<std::size_t>(op.dst)];
          outs.push_back(out);
        }
        ++id;
      }
      if (st.announce == 1) bspk_expect(incoming(st, me) + (me == who && s == at ? delta : 0));
      else if (st.announce == 2) bspk_will_send(will.data());
      bspk_sync();
      for (bspk_ptr m = bspk_recv(); !bspk_is_null(m); m = bspk_recv()) {
        o.received[s][meu].push_back(*static_cast<long*>(bspk_elemP(m)));
        o.senders[s][meu].push_back(bspk_sender_id(m));
        bspk_free(m);
      }
    }
    for (std::size_t k = 0; k < nops; ++k) o.in[meu][k] = static_cast<long*>(bspk_elemP(bspk_incr(in, static_cast<long>(k))))[0];
    for (bspk_ptr out : outs) bspk_free(out);
    bsp_end();
  });
}

RC_GTEST_PROP(Bspk, RightCountsDeliverEveryMessageOnce, ()) {
  const Program prog = *genProgram();
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o);
  RC_ASSERT(r.ok());
  RC_ASSERT(r.findings.empty());
  std::size_t id = 0;
  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    std::vector<std::vector<long>> want(static_cast<std::size_t>(prog.p));
    std::vector<std::vector<int>> want_from(static_cast<std::size_t>(prog.p));
    for (const Op& op : prog.steps[s].ops) {
      if (op.store) {
        RC_ASSERT(o.in[static_cast<std::size_t>(op.dst)][id] == value_of(id));
      } else {
        want[static_cast<std::size_t>(op.dst)].push_back(value_of(id));
        want_from[static_cast<std::size_t>(op.dst)].push_back(op.src);
      }
      ++id;
    }
    for (int q = 0; q < prog.p; ++q) {
      auto got = o.received[s][static_cast<std::size_t>(q)];
      auto from = o.senders[s][static_cast<std::size_t>(q)];
      std::sort(got.begin(), got.end());
      std::sort(from.begin(), from.end());
      std::sort(want[static_cast<std::size_t>(q)].begin(), want[static_cast<std::size_t>(q)].end());
      std::sort(want_from[static_cast<std::size_t>(q)].begin(), want_from[static_cast<std::size_t>(q)].end());
      RC_ASSERT(got == want[static_cast<std::size_t>(q)]);
      RC_ASSERT(from == want_from[static_cast<std::size_t>(q)]);
    }
  }
}

RC_GTEST_PROP(Bspk, WrongCountIsAlwaysReported, ()) {
  Program prog = *genProgram();
  if (prog.steps.empty()) prog.steps.push_back(Step{1, {}});
  // The superstep whose count goes wrong ends with bspk_expect on every process.
  const auto at = static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, prog.steps.size()));
  prog.steps[at].announce = 1;
  const int who = *rc::gen::inRange(0, prog.p);
  const int n = incoming(prog.steps[at], who);
  const bool lower = n > 0 && *rc::gen::arbitrary<bool>();
  const int delta = lower ? -*rc::gen::inRange(1, n + 1) : *rc::gen::inRange(1, 4);
  RC_TAG(lower ? "count lowered" : "count raised");
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o, who, at, delta);
  RC_ASSERT(!r.ok());
  RC_ASSERT(r.count("bspk-count-mismatch") > 0);
}

}  // namespace
