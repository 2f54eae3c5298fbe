// cbsp_property_test.cpp: property tests of cBSP on the local-sync engine (docs/cbsp.md).
//
// rapidcheck generates random cBSP programs as data: p in 1..8, the schedule seed, and a few
// supersteps, each either counting (every process ends it with cBSP_nsync of exactly the
// messages sent to it in that superstep) or global (cBSP_gsync); each message goes from a random
// source to a random receiver, to its own destination in the receiver's memory or to a NULL
// destination, with or without a handler.
//
//   Cbsp.RightCountsDeliverEveryMessageOnce  the run is clean, every destination holds its
//                                            message's value and every handler ran exactly once,
//                                            on the receiver, after its data was written
//   Cbsp.WrongCountIsAlwaysReported          the same program with one receiver's count of one
//                                            counting superstep raised (cbsp-count-excess) or
//                                            lowered (cbsp-late-message) is always reported
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <cbsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/testing.hpp>

#include <cstring>
#include <vector>

namespace {

struct Msg {
  int src, dst;
  bool null_dest, handler;
};
struct Step {
  bool global;
  std::vector<Msg> msgs;
};
struct Program {
  int p;
  std::uint64_t seed;
  std::vector<Step> steps;
};

rc::Gen<Program> genProgram() {
  return rc::gen::mapcat(rc::gen::inRange(1, 9), [](int p) {
    auto msg = rc::gen::construct<Msg>(rc::gen::inRange(0, p), rc::gen::inRange(0, p), rc::gen::arbitrary<bool>(),
                                       rc::gen::arbitrary<bool>());
    auto step = rc::gen::construct<Step>(rc::gen::weightedElement<bool>({{3, false}, {1, true}}),
                                         rc::gen::resize(12, rc::gen::container<std::vector<Msg>>(msg)));
    return rc::gen::construct<Program>(rc::gen::just(p), rc::gen::arbitrary<std::uint64_t>(),
                                       rc::gen::resize(5, rc::gen::container<std::vector<Step>>(step)));
  });
}

// What the run observed; handlers reach it through this pointer (they are plain C functions).
struct Observed {
  std::vector<std::vector<long>> dest;      // per process: one slot per message of the program
  std::vector<std::vector<int>> handled;    // per message: how often its handler ran
  std::vector<bool> wrong;                  // per message: its handler saw wrong data or node
  const Program* prog = nullptr;
  std::vector<const Msg*> by_id;
};
Observed* g_obs = nullptr;

long value_of(std::size_t id) { return static_cast<long>(id) * 1000 + 7; }

// The message id travels in the data: value_of(id).
void on_message(int src, void* dest, int nbytes) {
  long v = 0;
  std::memcpy(&v, dest, sizeof v);
  const std::size_t id = static_cast<std::size_t>((v - 7) / 1000);
  Observed& o = *g_obs;
  if (nbytes != sizeof(long) || id >= o.by_id.size() || value_of(id) != v) {
    ADD_FAILURE() << "handler got bytes that are no message";
    return;
  }
  const Msg& m = *o.by_id[id];
  if (m.src != src || m.dst != bsp_pid()) o.wrong[id] = true;
  ++o.handled[id][0];
}

// Runs prog; `count_delta` is added to the count of process `who` in superstep `at`.
bspcheck::RunResult runProgram(const Program& prog, Observed& o, int who = -1, std::size_t at = 0, int count_delta = 0) {
  std::size_t nmsgs = 0;
  o.prog = &prog;
  o.by_id.clear();
  for (const Step& s : prog.steps)
    for (const Msg& m : s.msgs) {
      o.by_id.push_back(&m);
      ++nmsgs;
    }
  o.dest.assign(static_cast<std::size_t>(prog.p), std::vector<long>(nmsgs, 0));
  o.handled.assign(nmsgs, std::vector<int>(1, 0));
  o.wrong.assign(nmsgs, false);
  g_obs = &o;
  bspcheck::Options opt;
  opt.procs = prog.p;
  opt.seed = prog.seed;
  return bspcheck::run(opt, [&] {
    bsp_begin(prog.p);
    cBSP_initialize();
    const int me = bsp_pid();
    std::size_t id = 0;
    for (std::size_t s = 0; s < prog.steps.size(); ++s) {
      int count = 0;
      for (const Msg& m : prog.steps[s].msgs) {
        if (m.src == me) {
          const long v = value_of(id);
          void* dest = m.null_dest && m.handler ? nullptr : &o.dest[static_cast<std::size_t>(m.dst)][id];
          cBSP_send(m.dst, dest, &v, sizeof v, m.handler ? on_message : nullptr);
        }
        count += m.dst == me;
        ++id;
      }
      if (prog.steps[s].global) {
        cBSP_gsync();
      } else {
        if (me == who && s == at) count += count_delta;
        cBSP_nsync(count);
      }
    }
    bsp_end();
  });
}

RC_GTEST_PROP(Cbsp, RightCountsDeliverEveryMessageOnce, ()) {
  const Program prog = *genProgram();
  std::size_t total = 0;
  for (const Step& s : prog.steps) total += s.msgs.size();
  RC_CLASSIFY(total == 0, "no message");
  RC_CLASSIFY(total > 10, "more than 10 messages");
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o);
  RC_ASSERT(r.ok());
  RC_ASSERT(r.findings.empty());
  std::size_t id = 0;
  for (const Step& s : prog.steps)
    for (const Msg& m : s.msgs) {
      if (!(m.null_dest && m.handler)) RC_ASSERT(o.dest[static_cast<std::size_t>(m.dst)][id] == value_of(id));
      RC_ASSERT(o.handled[id][0] == (m.handler ? 1 : 0));
      RC_ASSERT(!o.wrong[id]);
      ++id;
    }
}

RC_GTEST_PROP(Cbsp, WrongCountIsAlwaysReported, ()) {
  const Program prog = *genProgram();
  std::vector<std::size_t> counting;
  for (std::size_t s = 0; s < prog.steps.size(); ++s)
    if (!prog.steps[s].global) counting.push_back(s);
  RC_PRE(!counting.empty());
  const std::size_t at = *rc::gen::elementOf(counting);
  const int who = *rc::gen::inRange(0, prog.p);
  int received = 0;
  for (const Msg& m : prog.steps[at].msgs) received += m.dst == who;
  const bool lower = received > 0 && *rc::gen::arbitrary<bool>();
  const int delta = lower ? -*rc::gen::inRange(1, received + 1) : *rc::gen::inRange(1, 4);
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o, who, at, delta);
  RC_TAG(lower ? "count lowered" : "count raised");
  RC_ASSERT(!r.ok());
  RC_ASSERT(r.count(lower ? "cbsp-late-message" : "cbsp-count-excess") > 0);
}

}  // namespace
