// bspcheck::check_determinism (include/bspcheck/exploration.hpp): two runs of one schedule, the
// second replaying the first; what the seed does not give is named.
#include <bspcheck/exploration.hpp>
#include <bspcheck/rules.hpp>

#include <cstdio>

#include "unit_helpers.hpp"

namespace {

bspcheck::Options at(int procs, std::uint64_t seed) {
  bspcheck::Options o;
  o.procs = procs;
  o.seed = seed;
  return o;
}

// Each process sends its pid to every other and prints what it received in queue order: the
// output depends on the seed, and only on it.
void exchange_and_print() {
  bsp_begin(bsp_nprocs());
  for (int q = 0; q < bsp_nprocs(); ++q) {
    const int me = bsp_pid();
    if (q != me) bsp_send(q, nullptr, &me, sizeof me);
  }
  bsp_sync();
  int n = 0, bytes = 0;
  bsp_qsize(&n, &bytes);
  for (int i = 0; i < n; ++i) {
    int from = -1;
    bsp_move(&from, sizeof from);
    std::printf("from %d\n", from);
  }
  bsp_end();
}

}  // namespace

TEST(CheckDeterminism, ASeededProgramIsDeterministic) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto r = bspcheck::check_determinism(at(4, seed), exchange_and_print);
    EXPECT_TRUE(r.deterministic()) << (r.finding ? r.finding->message : r.error);
    EXPECT_TRUE(r.first.findings.empty()) << r.first.summary();
    EXPECT_EQ(r.first.output, r.second.output);
  }
}

// The number of supersteps depends on state outside the run (a counter the two runs share, as
// the clock or a file would be): the second run syncs where the first ended.
TEST(CheckDeterminism, ARunThatCallsDifferentlyIsLocated) {
  int runs = 0;
  const auto r = bspcheck::check_determinism(at(2, 7), [&runs] {
    bsp_begin(bsp_nprocs());
    if (bsp_pid() == 0) ++runs;
    bsp_sync();
    if (runs > 1) bsp_sync();
    bsp_end();
  });
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->rule, bspcheck::rule_id(bspcheck::Rule::uncontrolled_nondeterminism));
  EXPECT_NE(r.finding->message.find("seed 7"), std::string::npos) << r.finding->message;
  EXPECT_FALSE(r.finding->locations.empty()) << r.finding->message;
  EXPECT_FALSE(r.deterministic());
}

// The same calls, other output: the process and the line are named.
TEST(CheckDeterminism, OutputThatDiffersIsNamedByProcessAndLine) {
  int runs = 0;
  const auto r = bspcheck::check_determinism(at(3, 1), [&runs] {
    bsp_begin(bsp_nprocs());
    if (bsp_pid() == 2) std::printf("run %d\n", ++runs);
    bsp_sync();
    bsp_end();
  });
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->processes, std::vector<int>{2});
  EXPECT_NE(r.finding->message.find("run 1"), std::string::npos) << r.finding->message;
  EXPECT_NE(r.finding->message.find("run 2"), std::string::npos) << r.finding->message;
}
