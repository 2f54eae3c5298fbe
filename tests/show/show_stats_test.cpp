// `bsp-check show` against the runtime's own measure: programs run in-process (bspcheck::run)
// record a trace; show --json on that trace must give, superstep by superstep, the h-relation,
// message counts and totals that the runtime counted itself (RunResult::superstep_stats), for
// random mixes of put, get, hpput, hpget and send (with tag sizes changing between supersteps),
// zero-byte and self transfers, at several p and seeds.
#include <bsp.h>
#include <bspcheck/bspcheck.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kBspCheck = BSPCHECK_EXE;
const std::string kWork = SHOW_WORK_DIR;

struct Shown {
  int status = -1;
  nlohmann::json j;
};

Shown show_json(const std::string& trace, const std::string& extra = "") {
  const std::string out = trace + ".json";
  const std::string cmd = "'" + kBspCheck + "' show --json " + extra + " '" + trace + "' > '" + out + "'";
  Shown s;
  s.status = std::system(cmd.c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  s.j = nlohmann::json::parse(text.str(), nullptr, false);
  return s;
}

bspcheck::RunResult run_traced(int procs, std::uint64_t seed, const std::string& trace,
                               const std::function<void()>& spmd) {
  bspcheck::Options o;
  o.procs = procs;
  o.seed = seed;
  o.trace_file = trace;
  return bspcheck::run(o, spmd);
}

// Compares show's numbers with the runtime's, superstep by superstep.
void expect_same(const bspcheck::RunResult& r, const nlohmann::json& j, int p) {
  ASSERT_TRUE(j.is_object()) << "show --json did not print JSON";
  EXPECT_EQ(j["p"].get<int>(), p);
  EXPECT_TRUE(j["complete"].get<bool>());
  const auto& steps = j["supersteps"];
  // One superstep per bsp_sync barrier, and the last one ending at bsp_end.
  ASSERT_EQ(steps.size(), static_cast<std::size_t>(r.supersteps) + 1);
  ASSERT_EQ(steps.size(), r.superstep_stats.size());
  EXPECT_EQ(steps.back()["ends"], "end");
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& st = r.superstep_stats[k];
    EXPECT_EQ(steps[k]["h_bytes"].get<std::size_t>(), st.h_bytes) << "superstep " << k;
    EXPECT_EQ(steps[k]["h_messages"].get<std::size_t>(), st.h_messages) << "superstep " << k;
    EXPECT_EQ(steps[k]["total_bytes"].get<std::size_t>(), st.total_bytes) << "superstep " << k;
    EXPECT_EQ(steps[k]["total_messages"].get<std::size_t>(), st.total_operations) << "superstep " << k;
    EXPECT_EQ(steps[k]["h_words"].get<std::size_t>(), (st.h_bytes + 3) / 4) << "superstep " << k;
    EXPECT_EQ(steps[k]["ebsp"]["M"].get<std::size_t>(), (st.total_bytes + 3) / 4) << "superstep " << k;
  }
}

// A small deterministic generator per (seed, pid, superstep).
struct Lcg {
  std::uint64_t x;
  explicit Lcg(std::uint64_t s) : x(s * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  unsigned next(unsigned n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((x >> 33) % n);
  }
};

constexpr int kOps = 6, kSlot = 16, kSteps = 4;

// Every process, every superstep, makes up to kOps random transfers into its own slots of the
// target's area (no two writes overlap: no findings), gets from a read-only area, sends messages
// and drains its queue; process-wide tag size changes are requested in some supersteps.
void random_program(std::uint64_t seed) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), me = bsp_pid();
  std::vector<char> area(static_cast<std::size_t>(p * kOps * kSlot), 0);
  std::vector<char> readonly(kOps * kSlot, static_cast<char>(me));
  std::vector<char> src(kSlot, static_cast<char>(me + 1));
  std::vector<char> dst(static_cast<std::size_t>(kOps * kSlot), 0);
  std::vector<char> payload(40, 'x');
  std::array<char, 16> tag{};
  bsp_push_reg(area.data(), static_cast<int>(area.size()));
  bsp_push_reg(readonly.data(), static_cast<int>(readonly.size()));
  bsp_sync();
  for (int step = 0; step < kSteps; ++step) {
    Lcg g(seed * 1000003u + static_cast<std::uint64_t>(step) * 101u);  // same on every process
    int ts = static_cast<int>(g.next(9));                              // tag size for the next superstep
    if (g.next(2)) bsp_set_tagsize(&ts);
    Lcg mine(seed * 7919u + static_cast<std::uint64_t>(me) * 131u + static_cast<std::uint64_t>(step));
    const int ops = static_cast<int>(mine.next(kOps + 1));
    for (int op = 0; op < ops; ++op) {
      const int target = static_cast<int>(mine.next(static_cast<unsigned>(p)));
      const int n = static_cast<int>(mine.next(kSlot + 1));  // 0..16 bytes, 0 included
      const int slot = (me * kOps + op) * kSlot;
      switch (mine.next(5)) {
        case 0: bsp_put(target, src.data(), area.data(), slot, n); break;
        case 1: bsp_hpput(target, src.data(), area.data(), slot, n); break;
        case 2: bsp_get(target, readonly.data(), op * kSlot, dst.data() + op * kSlot, n); break;
        case 3: bsp_hpget(target, readonly.data(), op * kSlot, dst.data() + op * kSlot, n); break;
        default: bsp_send(target, tag.data(), payload.data(), static_cast<int>(mine.next(41))); break;
      }
    }
    bsp_sync();
    int nmsgs = 0, nbytes = 0;
    bsp_qsize(&nmsgs, &nbytes);
    for (int i = 0; i < nmsgs; ++i) {
      int status = 0;
      bsp_get_tag(&status, tag.data());
      bsp_move(payload.data(), static_cast<int>(payload.size()));
    }
  }
  bsp_pop_reg(readonly.data());
  bsp_pop_reg(area.data());
  bsp_end();
}

TEST(ShowStats, RandomTransfersMatchTheRuntimesCounts) {
  for (int p : {1, 2, 3, 5}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const std::string trace = kWork + "/random-p" + std::to_string(p) + "-s" + std::to_string(seed) + ".trace";
      const auto r = run_traced(p, seed, trace, [seed] { random_program(seed); });
      ASSERT_TRUE(r.ok()) << "p=" << p << " seed=" << seed << "\n" << r.summary();
      const Shown s = show_json(trace);
      ASSERT_EQ(s.status, 0) << trace;
      SCOPED_TRACE("p=" + std::to_string(p) + " seed=" + std::to_string(seed));
      expect_same(r, s.j, p);
    }
  }
}

TEST(ShowStats, TagBytesAreInferredFromSetTagsize) {
  // s0: request 6 (0 still valid): a send carries no tag. s1: 6-byte tags, request 2. s2: 2-byte tags.
  const std::string trace = kWork + "/tags.trace";
  const auto r = run_traced(3, 4, trace, [] {
    bsp_begin(3);
    const int me = bsp_pid();
    char tag[8] = {}, payload[10] = {};
    int ts = 6;
    bsp_set_tagsize(&ts);
    bsp_send((me + 1) % 3, tag, payload, 10);
    bsp_sync();
    ts = 2;
    bsp_set_tagsize(&ts);
    bsp_send((me + 1) % 3, tag, payload, 10);
    if (me == 0) bsp_send(2, tag, payload, 0);
    bsp_sync();
    bsp_send((me + 2) % 3, tag, payload, 10);
    bsp_sync();
    bsp_end();
  });
  ASSERT_TRUE(r.ok()) << r.summary();
  const Shown s = show_json(trace);
  ASSERT_EQ(s.status, 0);
  expect_same(r, s.j, 3);
  const auto& steps = s.j["supersteps"];
  EXPECT_EQ(steps[0]["h_bytes"], 10);
  EXPECT_EQ(steps[0]["tagsize"], 0);
  EXPECT_EQ(steps[1]["tagsize"], 6);
  EXPECT_EQ(steps[1]["h_bytes"], 22);  // process 0: 16 + 6 (a tag and no payload) bytes out
  EXPECT_EQ(steps[1]["processes"][0]["tag_bytes_out"], 12);
  EXPECT_EQ(steps[2]["h_bytes"], 12);
  EXPECT_EQ(steps[2]["tagsize"], 2);
  // Without the inferred tags only the payloads count.
  const Shown bare = show_json(trace, "--no-tag-bytes");
  ASSERT_EQ(bare.status, 0);
  EXPECT_EQ(bare.j["supersteps"][1]["h_bytes"], 10);
  EXPECT_EQ(bare.j["supersteps"][2]["h_bytes"], 10);
}

TEST(ShowStats, ACutOffRunShowsItsSuperstepsUpToTheCut) {
  const std::string trace = kWork + "/abort.trace";
  const auto r = run_traced(2, 1, trace, [] {
    bsp_begin(2);
    int x = 1;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    bsp_put(1 - bsp_pid(), &x, &x, 0, sizeof x);
    bsp_sync();
    if (bsp_pid() == 1) bsp_abort("stop here");
    bsp_sync();
    bsp_end();
  });
  EXPECT_TRUE(r.aborted);
  const Shown s = show_json(trace);
  ASSERT_EQ(s.status, 0);
  ASSERT_TRUE(s.j.is_object());
  const auto& steps = s.j["supersteps"];
  ASSERT_GE(steps.size(), 3u);
  EXPECT_EQ(steps[1]["h_bytes"], 4);
  EXPECT_EQ(steps[1]["h_bytes"].get<std::size_t>(), r.superstep_stats.at(1).h_bytes);
  EXPECT_EQ(steps.back()["processes"][1]["calls"].value("abort", 0), 1);
}

}  // namespace
