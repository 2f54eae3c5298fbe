// bspk_property_test.cpp: property tests of BSPk on the local-sync engine (docs/bspk.md).
//
// rapidcheck generates random BSPk programs as data: p in 1..8, the schedule seed, and up to five
// supersteps, each ended by a barrier (no announcement), bspk_expect or bspk_will_send with the
// right counts; in each, up to 12 random operations between random processes: bspk_send of a
// one-element region, a store (bspk_copy into element k of the receiver's region "in") and a
// fetch (bspk_copy from element k of the owner's region "pub" into a local region). The regions
// are looked up by name in the first superstep, some before their owner allocates them (the
// paper's Figure 6), and in some supersteps again, in the superstep that uses them.
//
//   Bspk.RightCountsDeliverEveryMessageOnce  the run is clean; every store's value is in its
//                                            element, every fetch got the owner's value; every
//                                            process receives, in the superstep after, exactly
//                                            the values sent to it (as multisets) with the right
//                                            sender ids
//   Bspk.WrongCountIsAlwaysReported          one process's bspk_expect of one superstep raised or
//                                            lowered is always reported as bspk-count-mismatch
//   Bspk.GeneratorCoverage                   the generator makes real programs: most have lazy
//                                            supersteps with messages between processes (a
//                                            generator scaled down to nothing once hid a bug)
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <bspk.h>
#include <bspcheck/bspcheck.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <vector>

namespace {

enum Kind { kSend, kStore, kFetch };
struct Op {
  int src, dst;
  int kind;  // Kind; a fetch reads element id of dst's "pub" into src's local region
};
struct Step {
  int announce;       // 0: barrier, 1: bspk_expect, 2: bspk_will_send
  bool fresh_lookup;  // look the regions up again in this superstep
  std::vector<Op> ops;
};
struct Program {
  int p;
  std::uint64_t seed;
  std::vector<Step> steps;
};

// How rapidcheck prints a failing program.
void showValue(const Program& prog, std::ostream& os) {
  os << "p=" << prog.p << " seed=" << prog.seed;
  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    const Step& st = prog.steps[s];
    os << "\n  step " << s << (st.announce == 0 ? " barrier" : st.announce == 1 ? " expect" : " will_send")
       << (st.fresh_lookup ? " fresh-lookup" : "") << ":";
    for (const Op& op : st.ops)
      os << " " << (op.kind == kSend ? "send" : op.kind == kStore ? "store" : "fetch") << " " << op.src << "->" << op.dst;
  }
}

// rapidcheck scales inRange and container sizes with its size parameter (0..100); the element
// generators are pinned at full size, so that a process id, an announcement or an operation kind
// is drawn from its whole range in every test case, and lengths are drawn uniformly.
template <typename T>
rc::Gen<T> full(rc::Gen<T> g) {
  return rc::gen::resize(100, std::move(g));
}

rc::Gen<Program> genProgram() {
  return rc::gen::mapcat(full(rc::gen::inRange(1, 9)), [](int p) {
    auto op = rc::gen::construct<Op>(full(rc::gen::inRange(0, p)), full(rc::gen::inRange(0, p)), full(rc::gen::inRange(0, 3)));
    auto ops = rc::gen::mapcat(full(rc::gen::inRange(0, 13)),
                               [op](int n) { return rc::gen::container<std::vector<Op>>(static_cast<std::size_t>(n), op); });
    auto step = rc::gen::construct<Step>(full(rc::gen::inRange(0, 3)), full(rc::gen::arbitrary<bool>()), ops);
    auto steps = rc::gen::mapcat(full(rc::gen::inRange(0, 6)), [step](int n) {
      return rc::gen::container<std::vector<Step>>(static_cast<std::size_t>(n), step);
    });
    return rc::gen::construct<Program>(rc::gen::just(p), full(rc::gen::arbitrary<std::uint64_t>()), steps);
  });
}

long value_of(std::size_t id) { return static_cast<long>(id) * 1000 + 7; }
long pub_value(int owner, std::size_t id) { return static_cast<long>(id) * 1000 + 100 + owner; }

struct Observed {
  std::vector<std::vector<long>> in;                     // per process: its "in" region at the end
  std::vector<std::vector<long>> got;                    // per process: its fetched elements
  std::vector<std::vector<std::vector<long>>> received;  // per step, per process: values received after it
  std::vector<std::vector<std::vector<int>>> senders;
};

// A message: a send (to itself too), a store or a fetch between two processes. Counted for the
// receiver of a send or store, for the owner of a fetch's source (docs/bspk.md, Counting).
bool is_message(const Op& op) { return op.kind == kSend || op.src != op.dst; }

// Messages process q receives in step s.
int incoming(const Step& st, int q) {
  int n = 0;
  for (const Op& op : st.ops) n += op.dst == q && is_message(op);
  return n;
}

bspcheck::RunResult runProgram(const Program& prog, Observed& o, int who = -1, std::size_t at = 0, int delta = 0) {
  std::size_t nops = 0;
  for (const Step& s : prog.steps) nops += s.ops.size();
  const auto P = static_cast<std::size_t>(prog.p);
  o.in.assign(P, std::vector<long>(nops, 0));
  o.got.assign(P, std::vector<long>(nops, 0));
  o.received.assign(prog.steps.size(), std::vector<std::vector<long>>(P));
  o.senders.assign(prog.steps.size(), std::vector<std::vector<int>>(P));
  bspcheck::Options opt;
  opt.procs = prog.p;
  opt.seed = prog.seed;
  return bspcheck::run(opt, [&] {
    bsp_begin(prog.p);
    const int me = bsp_pid();
    const auto meu = static_cast<std::size_t>(me);
    const long n = static_cast<long>(nops) + 1;
    bspk_ptr in = bspk_malloc("in", me, n, sizeof(long));
    std::vector<bspk_ptr> peers_in, peers_pub;
    auto look_up = [&] {
      peers_in.clear();
      peers_pub.clear();
      for (int q = 0; q < prog.p; ++q) peers_in.push_back(bspk_lookup("in", q));
      for (int q = 0; q < prog.p; ++q) peers_pub.push_back(bspk_lookup("pub", q));
    };
    look_up();  // "pub" before any process allocated it, "in" before some did
    bspk_ptr pub = bspk_malloc("pub", me, n, sizeof(long));
    for (std::size_t k = 0; k < nops; ++k) *static_cast<long*>(bspk_elemP(bspk_incr(pub, static_cast<long>(k)))) = pub_value(me, k);
    bspk_ptr got = bspk_malloc("", 0, n, sizeof(long));
    bspk_sync();
    std::vector<bspk_ptr> outs;
    std::size_t id = 0;
    for (std::size_t s = 0; s < prog.steps.size(); ++s) {
      const Step& st = prog.steps[s];
      if (st.fresh_lookup) look_up();
      std::vector<int> will(P, 0);
      for (const Op& op : st.ops) {
        if (op.src == me) {
          const auto d = static_cast<std::size_t>(op.dst);
          const long k = static_cast<long>(id);
          if (op.kind == kFetch) {
            bspk_copy(bspk_incr(got, k), bspk_incr(peers_pub[d], k), 1);
          } else {
            bspk_ptr out = bspk_malloc("", 0, 1, sizeof(long));
            *static_cast<long*>(bspk_elemP(out)) = value_of(id);
            if (op.kind == kStore) bspk_copy(bspk_incr(peers_in[d], k), out, 1);
            else bspk_send(op.dst, out, 1);
            outs.push_back(out);
          }
          if (is_message(op)) ++will[d];
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
    for (std::size_t k = 0; k < nops; ++k) {
      o.in[meu][k] = static_cast<long*>(bspk_elemP(bspk_incr(in, static_cast<long>(k))))[0];
      o.got[meu][k] = static_cast<long*>(bspk_elemP(bspk_incr(got, static_cast<long>(k))))[0];
    }
    for (bspk_ptr out : outs) bspk_free(out);
    bsp_end();
  });
}

// A lazy superstep with a message between two processes.
bool lazy_remote(const Step& st) {
  if (st.announce == 0) return false;
  for (const Op& op : st.ops)
    if (op.src != op.dst) return true;
  return false;
}

RC_GTEST_PROP(Bspk, RightCountsDeliverEveryMessageOnce, ()) {
  const Program prog = *genProgram();
  bool lazy = false, will = false, fetch = false, store = false;
  for (const Step& st : prog.steps) {
    lazy = lazy || lazy_remote(st);
    will = will || (st.announce == 2 && lazy_remote(st));
    for (const Op& op : st.ops) {
      fetch = fetch || (op.kind == kFetch && op.src != op.dst);
      store = store || (op.kind == kStore && op.src != op.dst);
    }
  }
  RC_CLASSIFY(lazy, "lazy superstep with remote messages");
  RC_CLASSIFY(will, "bspk_will_send superstep with remote messages");
  RC_CLASSIFY(fetch, "remote fetch");
  RC_CLASSIFY(store, "remote store");
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o);
  RC_ASSERT(r.ok());
  RC_ASSERT(r.findings.empty());
  std::size_t id = 0;
  for (std::size_t s = 0; s < prog.steps.size(); ++s) {
    std::vector<std::vector<long>> want(static_cast<std::size_t>(prog.p));
    std::vector<std::vector<int>> want_from(static_cast<std::size_t>(prog.p));
    for (const Op& op : prog.steps[s].ops) {
      if (op.kind == kStore) {
        RC_ASSERT(o.in[static_cast<std::size_t>(op.dst)][id] == value_of(id));
      } else if (op.kind == kFetch) {
        RC_ASSERT(o.got[static_cast<std::size_t>(op.src)][id] == pub_value(op.dst, id));
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
  if (prog.steps.empty()) prog.steps.push_back(Step{1, false, {}});
  // The superstep whose count goes wrong ends with bspk_expect on every process.
  const auto at = static_cast<std::size_t>(*full(rc::gen::inRange<std::size_t>(0, prog.steps.size())));
  prog.steps[at].announce = 1;
  const int who = *full(rc::gen::inRange(0, prog.p));
  const int n = incoming(prog.steps[at], who);
  const bool lower = n > 0 && *rc::gen::arbitrary<bool>();
  const int delta = lower ? -*full(rc::gen::inRange(1, n + 1)) : *full(rc::gen::inRange(1, 4));
  RC_TAG(lower ? "count lowered" : "count raised");
  Observed o;
  bspcheck::RunResult r = runProgram(prog, o, who, at, delta);
  RC_ASSERT(!r.ok());
  RC_ASSERT(r.count("bspk-count-mismatch") > 0);
}

// The programs the properties see, counted over the sizes rapidcheck goes through (0..100).
TEST(Bspk, GeneratorCoverage) {
  const int n = 400;
  int lazy = 0, will = 0, remote = 0, fetch = 0;
  for (int i = 0; i < n; ++i) {
    const Program prog = genProgram()(rc::Random(static_cast<std::uint64_t>(i) + 1), i % 101).value();
    bool l = false, w = false, r = false, f = false;
    for (const Step& st : prog.steps) {
      l = l || lazy_remote(st);
      w = w || (st.announce == 2 && lazy_remote(st));
      for (const Op& op : st.ops) {
        r = r || op.src != op.dst;
        f = f || (op.kind == kFetch && op.src != op.dst);
      }
    }
    lazy += l;
    will += w;
    remote += r;
    fetch += f;
  }
  std::printf("of %d programs: %d with a lazy superstep with remote messages, %d with bspk_will_send ones, %d with a "
              "remote message, %d with a remote fetch\n",
              n, lazy, will, remote, fetch);
  EXPECT_GT(lazy, n / 2);
  EXPECT_GT(will, n / 4);
  EXPECT_GT(remote, n * 2 / 3);
  EXPECT_GT(fetch, n / 3);
}

}  // namespace
