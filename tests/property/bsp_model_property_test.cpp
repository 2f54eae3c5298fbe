// bsp_model_property_test.cpp: model-based property tests of the bsp-check runtime.
//
// rapidcheck generates random BSPlib programs as data (generators.hpp: RawProgram, turned by
// normalize() in model.cpp into a correct program: valid registrations, in-bounds puts/gets, no
// races, hp operations used safely), together with p in 1..8, the 64-bit schedule seed and the
// scheduling strategy, so that shrinking reduces the seed too. Each program is interpreted on
// the runtime through bspcheck::run and, independently, run on the sequential reference model
// of model.cpp (written from the BSPlib paper, sections 3 and 4; it never calls the runtime).
//
// The programs use: bsp_push_reg of areas of sizes that differ per process, NULL registrations,
// re-registration of the same address; bsp_pop_reg of any live slot (not only the newest, also
// slots holding NULL on some processes); bsp_put/bsp_get, self-targeted and zero-byte ones,
// repeated ones (overlapping writes of identical data); bsp_hpput/bsp_hpget; local writes
// before and after puts (source copied at the call) and to get sources (read at the sync);
// bsp_send with tags, bsp_set_tagsize (sometimes several times in a superstep); bsp_qsize,
// bsp_get_tag, bsp_move with truncation, bsp_hpmove (its storage read at the end of the
// superstep), on empty queues too.
//
//   BspModel.RuntimeAgreesWithModel  final memory of every process, bsp_set_tagsize results and
//                                    every received message (compared as multisets per process
//                                    per superstep, since queue order is seeded; bsp_qsize and
//                                    bsp_get_tag results checked along the queue) must agree
//                                    with the model; the run must be clean (r.ok(), no error
//                                    findings, only the expected warnings), count its supersteps
//                                    right and capture each process's output.
//   BspModel.SameSeedSameRun         the same program and seed run twice give identical output,
//                                    memory, received messages in identical order, findings,
//                                    supersteps and switch counts.
//   BspModel.HandWrittenProgram      one fixed program through the same machinery.
//
// Number of cases: kCases below (1000; a quarter of that for determinism), unless RC_PARAMS
// sets max_success, e.g.
//   RC_PARAMS="max_success=20000" ./bsp_model_property_test
// A failure prints the shrunk program (as readable pseudo code) and an RC_PARAMS reproduce
// string. BSPMODEL_TRACE=1 prints every program before it runs (to find one that crashes).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <bspcheck/testing.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "generators.hpp"
#include "model.hpp"

namespace {

using namespace bspmodel;

constexpr int kCases = 1000;  // about 1.5 ms each: ~2 s per property

// ---- The interpreter: runs a Program on the runtime --------------------------------------

struct RuntimeRun {
  bspcheck::RunResult result;
  Observed obs;
  std::vector<std::string> printed;  // what each process printed with printf
};

RuntimeRun runOnRuntime(const Program& prog) {
  RuntimeRun run;
  Observed& obs = run.obs;
  const int p = prog.p;
  const std::size_t nsteps = prog.steps.size();
  for (int i = 0; i < p; ++i) obs.mem.push_back(initialMemory(i));
  obs.events.assign(nsteps, std::vector<std::vector<RecvEvent>>(p));
  obs.setTagsize.assign(nsteps, std::vector<std::vector<int>>(p));
  run.printed.assign(p, "");

  // BSPMODEL_TRACE=1: print every program before running it (to find one that crashes).
  if (std::getenv("BSPMODEL_TRACE") != nullptr) std::fprintf(stderr, "%s", show(prog).c_str());
  bspcheck::Options o;
  // Generated programs may read the destination of a pending bsp_get (as a put source, say);
  // under ASan that is the get-dst-early-read rule, tested on its own in tests/asan.
  o.asan_poisoning = false;
  o.procs = p;
  o.seed = prog.seed;
  o.strategy = prog.roundRobin ? bspcheck::Strategy::round_robin : bspcheck::Strategy::random;
  o.stack_size = 128 * 1024;
  run.result = bspcheck::run(o, [&] {
    bsp_begin(p);
    const int me = bsp_pid();
    if (me < 0 || me >= p || bsp_nprocs() != p) bsp_abort("unexpected pid %d of %d", me, bsp_nprocs());
    std::uint8_t* m = obs.mem[me].data();
    auto print = [&](const std::string& line) {
      std::printf("%s\n", line.c_str());
      run.printed[me] += line + "\n";
    };
    auto area = [m](int a) -> void* { return m + a * kAreaBytes; };
    for (std::size_t s = 0; s < nsteps; ++s) {
      const Superstep& st = prog.steps[s];
      auto& events = obs.events[s][me];
      struct HpMoved {
        std::size_t event;
        void* tag;
        void* payload;
      };
      std::vector<HpMoved> hpmoved;
      for (const Op& op : st.ops[me]) {
        switch (op.kind) {
          case OpKind::LocalWrite:
            std::memcpy(m + op.addr, op.data.data(), op.data.size());
            break;
          case OpKind::Put:
            bsp_put(op.pid, m + op.addr, area(op.area), op.offset, op.len);
            break;
          case OpKind::HpPut:
            bsp_hpput(op.pid, m + op.addr, area(op.area), op.offset, op.len);
            break;
          case OpKind::Get:
            bsp_get(op.pid, area(op.area), op.offset, m + op.addr, op.len);
            break;
          case OpKind::HpGet:
            bsp_hpget(op.pid, area(op.area), op.offset, m + op.addr, op.len);
            break;
          case OpKind::Send: {
            // NULL is allowed for a zero-sized tag or payload (4.2.2 note 3).
            const void* tag = op.nullTag ? nullptr : m + op.tagAddr;
            const void* payload = op.nullPayload ? nullptr : m + op.addr;
            bsp_send(op.pid, tag, payload, op.len);
            break;
          }
          case OpKind::PushReg:
            bsp_push_reg(op.area < 0 ? nullptr : area(op.area), op.len);
            break;
          case OpKind::PopReg:
            bsp_pop_reg(op.area < 0 ? nullptr : area(op.area));
            break;
          case OpKind::SetTagsize: {
            int t = op.len;
            bsp_set_tagsize(&t);
            obs.setTagsize[s][me].push_back(t);
            break;
          }
          case OpKind::Qsize: {
            RecvEvent e;
            e.kind = op.kind;
            bsp_qsize(&e.a, &e.b);
            print("s" + std::to_string(s) + " qsize " + std::to_string(e.a) + " " + std::to_string(e.b));
            events.push_back(std::move(e));
            break;
          }
          case OpKind::GetTag:
          case OpKind::Recv: {
            RecvEvent e;
            e.kind = op.kind;
            e.tag.assign(kMaxTag + 4, kSentinel);
            bsp_get_tag(&e.a, e.tag.data());
            if (op.kind == OpKind::Recv) {
              e.reception = op.len;
              e.buf.assign(op.len + 4, kSentinel);
              if (e.a >= 0) bsp_move(e.buf.data(), op.len);
            }
            print("s" + std::to_string(s) + (op.kind == OpKind::Recv ? " move " : " get_tag ") +
                  std::to_string(e.a));
            events.push_back(std::move(e));
            break;
          }
          case OpKind::HpMove: {
            RecvEvent e;
            e.kind = op.kind;
            void* tag = nullptr;
            void* payload = nullptr;
            e.a = bsp_hpmove(&tag, &payload);
            print("s" + std::to_string(s) + " hpmove " + std::to_string(e.a));
            events.push_back(std::move(e));
            // The storage stays valid until the end of the superstep (4.6): read it only then,
            // after the remaining moves of this superstep.
            if (events.back().a >= 0) hpmoved.push_back({events.size() - 1, tag, payload});
            break;
          }
        }
      }
      for (const HpMoved& h : hpmoved) {
        RecvEvent& e = events[h.event];
        const auto* t = static_cast<const std::uint8_t*>(h.tag);
        const auto* pl = static_cast<const std::uint8_t*>(h.payload);
        if (st.tagBytesIn > 0) e.tag.assign(t, t + st.tagBytesIn);
        if (e.a > 0) e.buf.assign(pl, pl + e.a);
      }
      std::fflush(stdout);
      if (st.last)
        bsp_end();
      else
        bsp_sync();
    }
  });
  return run;
}

std::string findingsOf(const bspcheck::RunResult& r) {
  std::ostringstream os;
  os << "nprocs=" << r.nprocs << " supersteps=" << r.supersteps << " aborted=" << r.aborted;
  if (r.aborted) os << " (" << r.abort_message << ")";
  os << "\n" << r.summary();
  return os.str();
}

// Warnings a correct generated program may legitimately draw: it may leave messages unread,
// truncate them on purpose, and leave registrations in place at bsp_end. Not put-collision:
// generated writes never overlap except for repeated puts/gets of identical data, whose result
// is deterministic.
bool expectedWarning(const bspcheck::Finding& f) {
  return f.severity == bspcheck::Severity::warning &&
         (f.rule == "queue-unconsumed" || f.rule == "move-truncated" || f.rule == "reg-leak");
}

// ---- The properties ---------------------------------------------------------------------------

void runtimeAgreesWithModel() {
  const RawProgram raw = *genRawProgram();
  const Program prog = normalize(raw);
  const ModelResult model = simulate(prog);
  RC_ASSERT(model.error.empty());  // else the generator produced an incorrect program
  const RuntimeRun run = runOnRuntime(prog);
  const bspcheck::RunResult& r = run.result;

  RC_TAG(prog.p);
  if (!r.ok() || r.nprocs != prog.p) RC_FAIL("run not clean: " + findingsOf(r));
  for (const auto& f : r.findings)
    if (!expectedWarning(f)) RC_FAIL("unexpected finding on a correct program: " + findingsOf(r));
  if (r.supersteps != static_cast<int>(prog.steps.size()) - 1)
    RC_FAIL("RunResult.supersteps is " + std::to_string(r.supersteps) + ", the program has " +
            std::to_string(prog.steps.size() - 1) + " bsp_syncs");
  for (int pid = 0; pid < prog.p; ++pid)
    if (r.output.size() != static_cast<std::size_t>(prog.p) || r.output[pid] != run.printed[pid])
      RC_FAIL("RunResult.output of process " + std::to_string(pid) + " is not what it printed");
  const std::string diff = compare(prog, model, run.obs);
  if (!diff.empty()) RC_FAIL("runtime disagrees with the reference model:\n" + diff);
}

void sameSeedSameRun() {
  const RawProgram raw = *genRawProgram();
  const Program prog = normalize(raw);
  const RuntimeRun a = runOnRuntime(prog);
  const RuntimeRun b = runOnRuntime(prog);
  RC_ASSERT(a.result.output == b.result.output);
  RC_ASSERT(a.obs.mem == b.obs.mem);
  RC_ASSERT(a.result.supersteps == b.result.supersteps);
  RC_ASSERT(a.result.switches == b.result.switches);
  RC_ASSERT(a.result.aborted == b.result.aborted);
  RC_ASSERT(a.obs.setTagsize == b.obs.setTagsize);
  for (std::size_t s = 0; s < prog.steps.size(); ++s)
    for (int pid = 0; pid < prog.p; ++pid) {
      const auto& ea = a.obs.events[s][pid];
      const auto& eb = b.obs.events[s][pid];
      RC_ASSERT(ea.size() == eb.size());
      for (std::size_t i = 0; i < ea.size(); ++i) {
        RC_ASSERT(ea[i].a == eb[i].a);
        RC_ASSERT(ea[i].b == eb[i].b);
        RC_ASSERT(ea[i].tag == eb[i].tag);
        RC_ASSERT(ea[i].buf == eb[i].buf);
      }
    }
  std::vector<std::string> ra, rb;
  for (const auto& f : a.result.findings) ra.push_back(f.rule + "@" + std::to_string(f.superstep));
  for (const auto& f : b.result.findings) rb.push_back(f.rule + "@" + std::to_string(f.superstep));
  RC_ASSERT(ra == rb);
}

}  // namespace

TEST(BspModel, RuntimeAgreesWithModel) { bspcheck::testing::checkProperty(&runtimeAgreesWithModel, kCases); }

TEST(BspModel, SameSeedSameRun) { bspcheck::testing::checkProperty(&sameSeedSameRun, kCases / 4); }

// A fixed hand-written program through the same machinery: a smoke test that reads well when
// the runtime is broken in some basic way (the properties then fail on everything).
TEST(BspModel, HandWrittenProgram) {
  Program prog;
  prog.p = 2;
  prog.seed = 7;
  auto op = [](OpKind k, int pid, int area, int offset, int addr, int len) {
    Op o;
    o.kind = k;
    o.pid = pid;
    o.area = area;
    o.offset = offset;
    o.addr = addr;
    o.len = len;
    return o;
  };
  Superstep s0, s1, s2;
  s0.ops.resize(2);
  s1.ops.resize(2);
  s2.ops.resize(2);
  for (int i = 0; i < 2; ++i) {
    s0.ops[i] = {op(OpKind::PushReg, 0, 0, 0, 0, 8 + i), op(OpKind::SetTagsize, 0, 0, 0, 0, 2)};
    Op w = op(OpKind::LocalWrite, 0, 0, 0, 50, 0);
    w.data = {9, 9, 9, 9};
    // put copies its source at the call, get reads its source at the sync
    s1.ops[i] = {op(OpKind::Put, 1 - i, 0, 1, 50, 4), w, op(OpKind::Get, 1 - i, 0, 4, 20, 4),
                 op(OpKind::Send, 1 - i, -1, 0, 48, 3)};
    s1.ops[i].back().tagAddr = 40;
    s2.ops[i] = {op(OpKind::Qsize, 0, 0, 0, 0, 0), op(OpKind::Recv, 0, 0, 0, 0, 2),
                 op(OpKind::HpMove, 0, 0, 0, 0, 0)};
  }
  s1.tagBytesIn = 0;
  s2.tagBytesIn = 2;
  s2.last = true;
  prog.steps = {s0, s1, s2};
  const ModelResult model = simulate(prog);
  ASSERT_EQ(model.error, "");
  const RuntimeRun run = runOnRuntime(prog);
  EXPECT_TRUE(run.result.ok()) << findingsOf(run.result);
  EXPECT_EQ(compare(prog, model, run.obs), "") << show(prog);
}
