// The MulticoreBSP for C interface (include/mcbsp.h, engine/frontends/mcbsp_api.cpp) on the engine: its
// empty-queue answers, its optional byte count, and the values its unsigned and size_t types can
// carry but the engine cannot hold, which are findings at the call site, never truncations.
// This file includes mcbsp.h alone: it declares the same names as the classic bsp.h.
#include <mcbsp.h>

#include <bspcheck/bspcheck.hpp>
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

bspcheck::RunResult run(int procs, std::uint64_t seed, const std::function<void()>& spmd) {
  bspcheck::Options o;
  o.procs = procs;
  o.seed = seed;
  return bspcheck::run(o, spmd);
}

const bspcheck::Finding* find(const bspcheck::RunResult& r, const std::string& rule) {
  for (const auto& f : r.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

void expect_finding_at(const bspcheck::RunResult& r, const std::string& rule, int line, const std::string& text) {
  const bspcheck::Finding* f = find(r, rule);
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_NE(f->message.find(text), std::string::npos) << f->message;
  ASSERT_FALSE(f->locations.empty());
  EXPECT_EQ(f->locations.front().line, line) << r.summary();
  EXPECT_NE(f->locations.front().file.find("test_mcbsp_api.cpp"), std::string::npos) << f->locations.front().file;
}

}  // namespace

TEST(McbspApi, EmptyQueueIsSizeMaxForGetTagAndHpmove) {
  std::vector<bsp_size_t> status(2, 0), moved(2, 0);
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    const bsp_pid_t s = bsp_pid();
    bsp_get_tag(&status[s], nullptr);
    void *tag = nullptr, *payload = nullptr;
    moved[s] = bsp_hpmove(&tag, &payload);
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(status, (std::vector<bsp_size_t>{SIZE_MAX, SIZE_MAX}));
  EXPECT_EQ(moved, (std::vector<bsp_size_t>{SIZE_MAX, SIZE_MAX}));
}

TEST(McbspApi, MessagesKeepTheirSizesAndTheByteCountIsOptional) {
  std::vector<bsp_nprocs_t> packets(3, 0);
  std::vector<bsp_size_t> status(3, 0), tagsize_before(3, 99);
  std::vector<double> got(3, -1.0);
  auto r = run(3, 5, [&] {
    bsp_begin(3);
    const bsp_pid_t s = bsp_pid(), p = bsp_nprocs();
    bsp_size_t tagsize = sizeof(bsp_pid_t);
    bsp_set_tagsize(&tagsize);
    tagsize_before[s] = tagsize;  // the tag size valid before: 0
    bsp_sync();
    const double x = 10.0 * s;
    bsp_send((s + 1) % p, &s, &x, sizeof x);
    bsp_sync();
    bsp_qsize(&packets[s], nullptr);  // MulticoreBSP: accumulated_size may be NULL
    bsp_pid_t from = 0;
    bsp_get_tag(&status[s], &from);
    bsp_move(&got[s], SIZE_MAX);  // any reception size beyond the payload copies the payload
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(packets, (std::vector<bsp_nprocs_t>{1, 1, 1}));
  EXPECT_EQ(status, (std::vector<bsp_size_t>{sizeof(double), sizeof(double), sizeof(double)}));
  EXPECT_EQ(tagsize_before, (std::vector<bsp_size_t>{0, 0, 0}));
  EXPECT_EQ(got, (std::vector<double>{20.0, 0.0, 10.0}));
}

TEST(McbspApi, NullPacketCountIsMisuse) {
  int line = 0;
  auto r = run(2, 7, [&] {
    bsp_begin(2);
    bsp_size_t bytes = 0;
    line = __LINE__ + 1;
    bsp_qsize(nullptr, &bytes);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_finding_at(r, "api-misuse", line, "bsp_qsize");
}

TEST(McbspApi, PutSizeBeyondIntMaxIsMisuseAndNotPerformed) {
  int line = 0;
  std::vector<int> target(2, 7);
  auto r = run(2, 9, [&] {
    bsp_begin(2);
    const bsp_pid_t s = bsp_pid();
    bsp_push_reg(&target[s], sizeof(int));
    bsp_sync();
    const int v = 1;
    line = __LINE__ + 1;
    bsp_put(1 - s, &v, &target[s], 0, static_cast<bsp_size_t>(INT_MAX) + 1);
    bsp_sync();
    bsp_pop_reg(&target[s]);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_finding_at(r, "api-misuse", line, "2147483648");
  EXPECT_EQ(find(r, "bounds-put"), nullptr) << "the put must not reach the engine truncated";
  EXPECT_EQ(target, (std::vector<int>{7, 7}));
}

TEST(McbspApi, OffsetBeyondIntMaxIsMisuse) {
  int line = 0;
  auto r = run(2, 11, [&] {
    bsp_begin(2);
    static double x[2][4];
    const bsp_pid_t s = bsp_pid();
    bsp_push_reg(x[s], sizeof x[s]);
    bsp_sync();
    double y = 0;
    line = __LINE__ + 1;
    bsp_get(1 - s, x[s], SIZE_MAX - 7, &y, sizeof y);
    bsp_sync();
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_finding_at(r, "api-misuse", line, "offset");
}

TEST(McbspApi, PidBeyondIntMaxIsBadPid) {
  int line = 0;
  auto r = run(2, 13, [&] {
    bsp_begin(2);
    const double x = 1.0;
    line = __LINE__ + 1;
    bsp_send(UINT_MAX, nullptr, &x, sizeof x);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_finding_at(r, "bad-pid", line, std::to_string(UINT_MAX));
}

TEST(McbspApi, RegistrationBeyondIntMaxIsMisuseButKeepsTheSlotsAligned) {
  int line = 0;
  std::vector<double> got(2, -1.0);
  auto r = run(2, 15, [&] {
    bsp_begin(2);
    static double big[2], small[2];
    const bsp_pid_t s = bsp_pid();
    big[s] = 1.0 + s;
    line = __LINE__ + 1;
    bsp_push_reg(&big[s], static_cast<bsp_size_t>(INT_MAX) + 2);
    bsp_push_reg(&small[s], sizeof small[s]);
    bsp_sync();
    // The registration after the oversized one still pairs up across the processes.
    bsp_put(1 - s, &big[s], &small[s], 0, sizeof(double));
    bsp_sync();
    got[s] = small[s];
    bsp_pop_reg(&small[s]);
    bsp_pop_reg(&big[s]);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_finding_at(r, "api-misuse", line, "bsp_push_reg");
  EXPECT_EQ(find(r, "reg-count-mismatch"), nullptr) << r.summary();
  EXPECT_EQ(got, (std::vector<double>{2.0, 1.0}));
}

TEST(McbspApi, MaximumThreadsCapsTheProcessesGranted) {
  std::vector<bsp_nprocs_t> seen;
  mcbsp_set_maximum_threads(2);
  const bsp_nprocs_t available = bsp_nprocs();
  auto r = run(4, 17, [&] {
    bsp_begin(4);
    if (bsp_pid() == 0) seen.push_back(bsp_nprocs());
    bsp_end();
  });
  mcbsp_set_maximum_threads(0);  // no limit again, for the other tests
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(available, 2u);
  EXPECT_EQ(seen, (std::vector<bsp_nprocs_t>{2}));
}

// mcbsp-affinity.h's getters (MulticoreBSP for C 2.0): a program that sizes a pinning array by
// mcbsp_get_maximum_threads or prints the machine links and reads back what it set, or the
// defaults; placement itself has no effect here.
TEST(McbspApi, AffinityGettersReturnWhatWasSetOrTheDefaults) {
  const auto available = static_cast<size_t>(bsp_nprocs());
  EXPECT_EQ(mcbsp_get_maximum_threads(), available);
  EXPECT_EQ(mcbsp_get_affinity_mode(), SCATTER);
  EXPECT_EQ(mcbsp_get_threads_per_core(), 1u);
  EXPECT_EQ(mcbsp_get_thread_numbering(), CONSECUTIVE);
  EXPECT_EQ(mcbsp_get_available_cores(), available);
  EXPECT_EQ(mcbsp_get_pinning(), nullptr);
  EXPECT_EQ(mcbsp_get_reserved_cores(), nullptr);

  static const size_t pinning[] = {3, 2, 1, 0};  // const, as programs declare it
  static const size_t reserved[] = {5};
  mcbsp_set_maximum_threads(4);
  mcbsp_set_pinning(pinning, 4);
  mcbsp_set_reserved_cores(reserved, 1);
  mcbsp_set_threads_per_core(2);
  mcbsp_set_thread_numbering(WRAPPED);
  EXPECT_EQ(mcbsp_get_maximum_threads(), 4u);
  EXPECT_EQ(mcbsp_get_affinity_mode(), MANUAL);  // implied by the pinning
  EXPECT_EQ(mcbsp_get_threads_per_core(), 2u);
  EXPECT_EQ(mcbsp_get_thread_numbering(), WRAPPED);
  EXPECT_EQ(mcbsp_get_available_cores(), available / 2);
  size_t* got = mcbsp_get_pinning();
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(std::vector<size_t>(got, got + 4), (std::vector<size_t>{3, 2, 1, 0}));
  std::free(got);
  EXPECT_EQ(mcbsp_get_reserved_cores_number(), 1u);
  got = mcbsp_get_reserved_cores();
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got[0], 5u);
  std::free(got);
  // Back to the defaults, for the other tests.
  mcbsp_set_maximum_threads(0);
  mcbsp_set_threads_per_core(1);
  mcbsp_set_thread_numbering(CONSECUTIVE);
  mcbsp_set_affinity_mode(SCATTER);
}
