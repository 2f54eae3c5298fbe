// cbsp_property_test.cpp: property tests of cBSP on the local-sync engine (docs/cbsp.md).
//
// rapidcheck generates random cBSP programs as data: p in 1..8, the schedule seed, and up to five
// supersteps, each either counting (every process ends it with cBSP_nsync of exactly the
// messages sent to it in that superstep) or global (cBSP_gsync); up to 12 messages each, from a
// random source to a random receiver, to its own destination in the receiver's memory or to a
// NULL destination, with or without a handler; in a global superstep a handler may forward its
// message to a third process while the cBSP_gsync runs.
//
//   Cbsp.RightCountsDeliverEveryMessageOnce  the run is clean, every destination holds its
//                                            message's value and every handler ran exactly once,
//                                            on the receiver, after its data was written; every
//                                            forwarded message arrived before the cBSP_gsync
//                                            ended (the paper: pending messages are written and
//                                            handlers run "prior to exit from cBSP_gsync")
//   Cbsp.WrongCountIsAlwaysReported          the same program with one receiver's count of one
//                                            counting superstep raised (cbsp-count-excess) or
//                                            lowered (cbsp-late-message) is always reported
//   Cbsp.GeneratorCoverage                   the generator makes real programs: most have
//                                            messages between processes in counting supersteps
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <cbsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/testing.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

struct Msg {
  int src, dst;
  bool null_dest, handler;
  int fwd;  // a handler of a global superstep with a destination sends the value on to fwd (-1: not)
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

// rapidcheck scales inRange and container sizes with its size parameter (0..100); the element
// generators are pinned at full size, so that a process id is drawn from all p in every test
// case, and lengths are drawn uniformly.
template <typename T>
rc::Gen<T> full(rc::Gen<T> g) {
  return rc::gen::resize(100, std::move(g));
}

rc::Gen<Program> genProgram() {
  return rc::gen::mapcat(full(rc::gen::inRange(1, 9)), [](int p) {
    auto msg = rc::gen::construct<Msg>(full(rc::gen::inRange(0, p)), full(rc::gen::inRange(0, p)),
                                       full(rc::gen::arbitrary<bool>()), full(rc::gen::arbitrary<bool>()),
                                       full(rc::gen::inRange(-1, p)));
    auto msgs = rc::gen::mapcat(full(rc::gen::inRange(0, 13)), [msg](int n) {
      return rc::gen::container<std::vector<Msg>>(static_cast<std::size_t>(n), msg);
    });
    auto step = rc::gen::construct<Step>(full(rc::gen::weightedElement<bool>({{3, false}, {1, true}})), msgs);
    auto steps = rc::gen::mapcat(full(rc::gen::inRange(0, 6)), [step](int n) {
      return rc::gen::container<std::vector<Step>>(static_cast<std::size_t>(n), step);
    });
    return rc::gen::construct<Program>(rc::gen::just(p), full(rc::gen::arbitrary<std::uint64_t>()), steps);
  });
}

// What the run observed; handlers reach it through this pointer (they are plain C functions).
struct Observed {
  std::vector<std::vector<long>> dest;      // per process: one slot per message of the program
  std::vector<std::vector<int>> handled;    // per message: how often its handler ran
  std::vector<bool> wrong;                  // per message: its handler saw wrong data or node
  std::vector<bool> forwarded;              // per message: its handler sends it on to its fwd
  std::vector<std::vector<long>> fwd_dest;  // per process: one slot per message forwarded to it
  std::vector<int> fwd_handled;             // per message: how often the forwarded copy's handler ran
  const Program* prog = nullptr;
  std::vector<const Msg*> by_id;
};
Observed* g_obs = nullptr;

long value_of(std::size_t id) { return static_cast<long>(id) * 1000 + 7; }

// The message id travels in the data: value_of(id).
std::size_t message_id(const void* dest, int nbytes) {
  long v = 0;
  std::memcpy(&v, dest, sizeof v);
  const std::size_t id = static_cast<std::size_t>((v - 7) / 1000);
  if (nbytes != sizeof(long) || id >= g_obs->by_id.size() || value_of(id) != v) {
    ADD_FAILURE() << "handler got bytes that are no message";
    return SIZE_MAX;
  }
  return id;
}

void on_forwarded(int src, void* dest, int nbytes) {
  const std::size_t id = message_id(dest, nbytes);
  if (id == SIZE_MAX) return;
  const Msg& m = *g_obs->by_id[id];
  if (m.dst != src || m.fwd != bsp_pid()) g_obs->wrong[id] = true;
  ++g_obs->fwd_handled[id];
}

void on_message(int src, void* dest, int nbytes) {
  const std::size_t id = message_id(dest, nbytes);
  if (id == SIZE_MAX) return;
  Observed& o = *g_obs;
  const long v = value_of(id);
  const Msg& m = *o.by_id[id];
  if (m.src != src || m.dst != bsp_pid()) o.wrong[id] = true;
  ++o.handled[id][0];
  if (o.forwarded[id]) cBSP_send(m.fwd, &o.fwd_dest[static_cast<std::size_t>(m.fwd)][id], &v, sizeof v, on_forwarded);
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
  o.forwarded.clear();
  for (const Step& s : prog.steps)
    for (const Msg& m : s.msgs) o.forwarded.push_back(s.global && m.handler && !m.null_dest && m.fwd >= 0);
  o.fwd_dest.assign(static_cast<std::size_t>(prog.p), std::vector<long>(nmsgs, 0));
  o.fwd_handled.assign(nmsgs, 0);
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

// A counting superstep with a message between two processes.
bool counting_remote(const Program& prog) {
  for (const Step& s : prog.steps)
    for (const Msg& m : s.msgs)
      if (!s.global && m.src != m.dst) return true;
  return false;
}
bool forwarding(const Program& prog) {
  for (const Step& s : prog.steps)
    for (const Msg& m : s.msgs)
      if (s.global && m.handler && !m.null_dest && m.fwd >= 0) return true;
  return false;
}

RC_GTEST_PROP(Cbsp, RightCountsDeliverEveryMessageOnce, ()) {
  const Program prog = *genProgram();
  std::size_t total = 0;
  for (const Step& s : prog.steps) total += s.msgs.size();
  RC_CLASSIFY(total == 0, "no message");
  RC_CLASSIFY(total > 10, "more than 10 messages");
  RC_CLASSIFY(counting_remote(prog), "counting superstep with messages between processes");
  RC_CLASSIFY(forwarding(prog), "handler forwarding during cBSP_gsync");
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
      if (o.forwarded[id]) {
        RC_ASSERT(o.fwd_dest[static_cast<std::size_t>(m.fwd)][id] == value_of(id));
        RC_ASSERT(o.fwd_handled[id] == 1);
      }
      ++id;
    }
}

RC_GTEST_PROP(Cbsp, WrongCountIsAlwaysReported, ()) {
  const Program prog = *genProgram();
  std::vector<std::size_t> counting;
  for (std::size_t s = 0; s < prog.steps.size(); ++s)
    if (!prog.steps[s].global) counting.push_back(s);
  RC_PRE(!counting.empty());
  const std::size_t at = *full(rc::gen::elementOf(counting));
  const int who = *full(rc::gen::inRange(0, prog.p));
  int received = 0;
  for (const Msg& m : prog.steps[at].msgs) received += m.dst == who;
  const bool lower = received > 0 && *rc::gen::arbitrary<bool>();
  const int delta = lower ? -*full(rc::gen::inRange(1, received + 1)) : *full(rc::gen::inRange(1, 4));
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o, who, at, delta);
  RC_TAG(lower ? "count lowered" : "count raised");
  RC_ASSERT(!r.ok());
  RC_ASSERT(r.count(lower ? "cbsp-late-message" : "cbsp-count-excess") > 0);
}

// The programs the properties see, counted over the sizes rapidcheck goes through (0..100).
TEST(Cbsp, GeneratorCoverage) {
  const int n = 400;
  int remote = 0, forward = 0;
  for (int i = 0; i < n; ++i) {
    const Program prog = genProgram()(rc::Random(static_cast<std::uint64_t>(i) + 1), i % 101).value();
    remote += counting_remote(prog);
    forward += forwarding(prog);
  }
  std::printf("of %d programs: %d with a counting superstep with messages between processes, %d forwarding in a "
              "cBSP_gsync\n",
              n, remote, forward);
  EXPECT_GT(remote, n / 2);
  EXPECT_GT(forward, n / 10);
}

}  // namespace
