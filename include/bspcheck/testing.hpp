// testing.hpp: GoogleTest and rapidcheck helpers for testing BSPlib code with bsp-check.
//
// GoogleTest (link GTest::gtest and BSPCheck::bsp):
//
//   TEST(MyLib, BcastIsClean) {
//     bspcheck::testing::Sweep s;  s.pmin = 1;  s.pmax = 8;  s.seeds = 20;   // 160 runs
//     EXPECT_TRUE(bspcheck::testing::RunsClean(s, [] {
//       bsp_begin(bsp_nprocs());  ...  bsp_end();
//     }));
//   }
//   bspcheck::RunResult r = bspcheck::run(o, spmd);
//   EXPECT_BSP_CLEAN(r);        // no findings at all (EXPECT_BSP_OK: no errors; warnings allowed)
//
// A failing sweep names the first failing case with its findings and a reproduce token:
//   BSPCHECK_TESTING_CASE=3:17 ./my_test --gtest_filter=MyLib.BcastIsClean
// runs that one case (p = 3, seed 17; ":round_robin" appended when the strategy was round robin)
// instead of the sweep; `bsp-check run -p 3 --seed 17 PROG` replays a program the same way.
//
// rapidcheck (also link rapidcheck and, for RC_GTEST_PROP, rapidcheck_gtest): generate the
// processor count and the schedule seed as part of the case, so that the RC_PARAMS reproduce
// string rapidcheck prints replays input, p and seed together, and shrinking shrinks them too:
//
//   BSPCHECK_PROPERTY(MyLib, Sum, 300) {          // or RC_GTEST_PROP(MyLib, Sum, ()) (100 cases)
//     const auto c = *bspcheck::testing::genBspCase(1, 16);
//     const auto xs = *rc::gen::container<std::vector<int>>(rc::gen::arbitrary<int>());
//     bspcheck::RunResult r = bspcheck::testing::runCase(c, [&] { ... });
//     RC_ASSERT_BSP_CLEAN(r, c);
//   }
//
// Define BSPCHECK_TESTING_NO_RAPIDCHECK to leave the rapidcheck part out.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <sstream>
#include <string>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::testing {

// One run's configuration: the processors available and the schedule.
struct BspCase {
  int p = 1;
  std::uint64_t seed = 1;
  Strategy strategy = Strategy::random;
};

inline bool operator==(const BspCase& a, const BspCase& b) {
  return a.p == b.p && a.seed == b.seed && a.strategy == b.strategy;
}

// The Options of a case, on top of base (stack size, disabled rules, ...).
inline Options options(const BspCase& c, Options base = {}) {
  base.procs = c.p;
  base.seed = c.seed;
  base.strategy = c.strategy;
  return base;
}

// "p=3 seed=17 strategy=random"
inline std::ostream& operator<<(std::ostream& os, const BspCase& c) {
  return os << "p=" << c.p << " seed=" << c.seed << " strategy=" << strategy_name(c.strategy);
}

// How to run this case again: the test with BSPCHECK_TESTING_CASE, a program with bsp-check.
inline std::string reproduce(const BspCase& c) {
  std::ostringstream s;
  s << "reproduce: BSPCHECK_TESTING_CASE=" << c.p << ":" << c.seed
    << (c.strategy == Strategy::random ? "" : ":" + strategy_name(c.strategy))
    << " (a program: " << reproduce_command(c.p, c.seed, c.strategy, "PROG") << ")";
  return s.str();
}

// Runs spmd (bsp_begin(bsp_nprocs()) ... bsp_end()) on case c.
inline RunResult runCase(const BspCase& c, const std::function<void()>& spmd, const Options& base = {}) {
  return run(options(c, base), spmd);
}

enum class Clean {
  no_findings,  // not a single finding, warnings included (for library code that must be spotless)
  no_errors,    // RunResult::ok(): no error findings, not aborted (warnings allowed)
};

inline bool isClean(const RunResult& r, Clean level) {
  return level == Clean::no_findings ? r.findings.empty() && !r.aborted : r.ok();
}

// The failure text: what was found, and how to run the case again.
inline std::string describe(const RunResult& r, const BspCase& c) {
  return r.summary() + (r.aborted && !r.abort_message.empty() ? "abort: " + r.abort_message + "\n" : "") + reproduce(c);
}

inline ::testing::AssertionResult IsBspClean(const RunResult& r, Clean level = Clean::no_findings) {
  if (isClean(r, level)) return ::testing::AssertionSuccess();
  BspCase c{r.nprocs, r.seed, Strategy::random};
  return ::testing::AssertionFailure() << "bsp-check found problems:\n" << describe(r, c);
}

#define EXPECT_BSP_CLEAN(result) \
  EXPECT_TRUE(::bspcheck::testing::IsBspClean((result), ::bspcheck::testing::Clean::no_findings))
#define ASSERT_BSP_CLEAN(result) \
  ASSERT_TRUE(::bspcheck::testing::IsBspClean((result), ::bspcheck::testing::Clean::no_findings))
#define EXPECT_BSP_OK(result) \
  EXPECT_TRUE(::bspcheck::testing::IsBspClean((result), ::bspcheck::testing::Clean::no_errors))
#define ASSERT_BSP_OK(result) \
  ASSERT_TRUE(::bspcheck::testing::IsBspClean((result), ::bspcheck::testing::Clean::no_errors))

// A set of cases: every p in pmin..pmax with seeds first_seed .. first_seed+seeds-1.
struct Sweep {
  int pmin = 1;
  int pmax = 8;
  std::uint64_t first_seed = 1;
  int seeds = 20;
  Strategy strategy = Strategy::random;
  Clean level = Clean::no_findings;
  Options base;  // procs, seed and strategy are overwritten per case
};

// Parses BSPCHECK_TESTING_CASE=p:seed[:strategy]; false when unset or malformed.
inline bool caseFromEnvironment(BspCase& c) {
  const char* v = std::getenv("BSPCHECK_TESTING_CASE");
  if (!v || !*v) return false;
  int p = 0;
  unsigned long long seed = 0;
  char strategy[32] = "";
  const int n = std::sscanf(v, "%d:%llu:%31s", &p, &seed, strategy);
  Strategy chosen = Strategy::random;
  if (n < 2 || p < 1 || (n == 3 && !strategy_from_name(strategy, chosen))) return false;
  c = BspCase{p, static_cast<std::uint64_t>(seed), chosen};
  return true;
}

// Calls check(case) for every case of the sweep (or only the BSPCHECK_TESTING_CASE one) until
// one fails; check returns an AssertionResult. The failure names the case and its reproduce line.
template <class Check>
::testing::AssertionResult ForEachCase(const Sweep& s, Check&& check) {
  BspCase only;
  if (caseFromEnvironment(only)) {
    ::testing::AssertionResult res = check(only);
    if (res) return res;
    return ::testing::AssertionFailure() << "case " << only << ": " << res.message() << "\n" << reproduce(only);
  }
  for (int p = s.pmin; p <= s.pmax; ++p)
    for (int k = 0; k < s.seeds; ++k) {
      const BspCase c{p, s.first_seed + static_cast<std::uint64_t>(k), s.strategy};
      ::testing::AssertionResult res = check(c);
      if (!res) return ::testing::AssertionFailure() << "case " << c << ": " << res.message() << "\n" << reproduce(c);
    }
  return ::testing::AssertionSuccess();
}

// Runs spmd on every case of the sweep; fails at the first run that is not clean (Sweep::level).
inline ::testing::AssertionResult RunsClean(const Sweep& s, const std::function<void()>& spmd) {
  return ForEachCase(s, [&](const BspCase& c) -> ::testing::AssertionResult {
    const RunResult r = runCase(c, spmd, s.base);
    if (isClean(r, s.level)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "bsp-check found problems:\n"
                                         << r.summary()
                                         << (r.aborted && !r.abort_message.empty() ? "abort: " + r.abort_message : "");
  });
}

}  // namespace bspcheck::testing

#if !defined(BSPCHECK_TESTING_NO_RAPIDCHECK) && __has_include(<rapidcheck.h>)
#include <rapidcheck.h>

namespace bspcheck::testing {

// p uniform in pmin..pmax (whatever rapidcheck's size; shrinks towards pmin), a 64-bit seed
// (shrinks towards 0) and, one case in four, the round-robin strategy.
inline rc::Gen<BspCase> genBspCase(int pmin = 1, int pmax = 16) {
  return rc::gen::exec([pmin, pmax] {
    BspCase c;
    c.p = *rc::gen::resize(100, rc::gen::inRange(pmin, pmax + 1));
    c.seed = *rc::gen::arbitrary<std::uint64_t>();
    c.strategy = *rc::gen::element(Strategy::random, Strategy::random, Strategy::random, Strategy::round_robin);
    return c;
  });
}

// Runs a rapidcheck property as the current GoogleTest test with `cases` cases, unless RC_PARAMS
// sets max_success; honours RC_PARAMS="reproduce=..." and reports failures (with the reproduce
// string) through GoogleTest. Use through BSPCHECK_PROPERTY below.
template <typename Testable>
void checkProperty(Testable&& testable, int cases) {
  using namespace rc::detail;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  TestParams params = configuration().testParams;
  const char* env = std::getenv("RC_PARAMS");
  if (env == nullptr || std::string(env).find("max_success") == std::string::npos) params.maxSuccess = cases;
  const TestResult result = rc::detail::checkProperty(toProperty(std::forward<Testable>(testable)), metadata, params);
  std::ostringstream ss;
  printResultMessage(result, ss);
  if (!result.template is<SuccessResult>()) FAIL() << ss.str();
}

}  // namespace bspcheck::testing

// A GoogleTest test Suite.Name running the property body that follows with `cases` cases:
//   BSPCHECK_PROPERTY(MyLib, Sum, 300) { const auto c = *bspcheck::testing::genBspCase(); ... }
#define BSPCHECK_PROPERTY(Suite, Name, cases)                                                             \
  static void bspcheck_property_##Suite##_##Name();                                                       \
  TEST(Suite, Name) { ::bspcheck::testing::checkProperty(&bspcheck_property_##Suite##_##Name, (cases)); } \
  static void bspcheck_property_##Suite##_##Name()

namespace rc {
template <>
struct Arbitrary<bspcheck::testing::BspCase> {
  static Gen<bspcheck::testing::BspCase> arbitrary() { return bspcheck::testing::genBspCase(1, 8); }
};
}  // namespace rc

// Inside a rapidcheck property: fails the case with the findings and the bsp-check case (the
// RC_PARAMS reproduce string that rapidcheck prints replays the whole case).
#define RC_ASSERT_BSP_CLEAN(result, bspcase)                                                        \
  do {                                                                                              \
    const ::bspcheck::RunResult& rc_bsp_r_ = (result);                                              \
    if (!::bspcheck::testing::isClean(rc_bsp_r_, ::bspcheck::testing::Clean::no_findings))          \
      RC_FAIL("bsp-check found problems:\n" + ::bspcheck::testing::describe(rc_bsp_r_, (bspcase))); \
  } while (0)
#define RC_ASSERT_BSP_OK(result, bspcase)                                                           \
  do {                                                                                              \
    const ::bspcheck::RunResult& rc_bsp_r_ = (result);                                              \
    if (!::bspcheck::testing::isClean(rc_bsp_r_, ::bspcheck::testing::Clean::no_errors))            \
      RC_FAIL("bsp-check found problems:\n" + ::bspcheck::testing::describe(rc_bsp_r_, (bspcase))); \
  } while (0)

#endif
