// replay/shrink.hpp and replay/bounded_search.hpp on their own, with made-up runs: what they
// choose, without any program.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "replay/bounded_search.hpp"
#include "replay/coverage_search.hpp"
#include "replay/shrink.hpp"

namespace trace = bspcheck::trace;

TEST(ShrinkChoices, FindsExactlyTheChoicesTheFailureNeeds) {
  // A failure that needs choices 3 and 7 of 20.
  auto fails = [](const std::vector<std::size_t>& kept) {
    return std::count(kept.begin(), kept.end(), 3u) && std::count(kept.begin(), kept.end(), 7u);
  };
  const trace::ShrinkOutcome s = trace::shrink_choices(20, fails, 1000);
  EXPECT_EQ(s.kept, (std::vector<std::size_t>{3, 7}));
  EXPECT_FALSE(s.stopped_at_limit);
  EXPECT_LT(s.runs, 60u) << "delta debugging, not one run per subset";
}

TEST(ShrinkChoices, AFailureThatNeedsNoChoiceKeepsNone) {
  std::size_t calls = 0;
  const trace::ShrinkOutcome s = trace::shrink_choices(50, [&](const std::vector<std::size_t>&) { return ++calls, true; }, 1000);
  EXPECT_TRUE(s.kept.empty());
  EXPECT_EQ(calls, 1u) << "the default schedule is tried first";
}

TEST(ShrinkChoices, StopsAtMaxRuns) {
  auto fails = [](const std::vector<std::size_t>& kept) { return kept.size() >= 10; };
  const trace::ShrinkOutcome s = trace::shrink_choices(100, fails, 5);
  EXPECT_LE(s.runs, 5u);
  EXPECT_TRUE(s.stopped_at_limit);
}

namespace {

// A made-up program: every run is offered `points` choices of `n` options each, whatever it
// chose before; returns the schedules run.
std::vector<trace::BoundedSearch::Schedule> enumerate(std::size_t bound, std::size_t points, unsigned n) {
  trace::BoundedSearch search(bound);
  std::vector<trace::BoundedSearch::Schedule> ran;
  while (const auto s = search.next()) {
    std::vector<trace::OfferedChoice> offered;
    for (std::size_t i = 0; i < points; ++i)
      offered.push_back({2, n, i < s->values.size() ? s->values[i] : n - 1});
    ran.push_back(*s);
    search.ran(*s, offered);
  }
  return ran;
}

}  // namespace

TEST(BoundedSearch, RunsEachScheduleWithinTheBoundOnce) {
  // 4 points of 3 options: 1 default + 4*2 with one deviation + C(4,2)*2*2 with two.
  const auto ran = enumerate(2, 4, 3);
  EXPECT_EQ(ran.size(), 1u + 8u + 24u);
  std::set<std::vector<unsigned>> distinct;
  for (const auto& s : ran) {
    std::vector<unsigned> full(4, 2);
    for (std::size_t i = 0; i < s.values.size(); ++i) full[i] = s.values[i];
    EXPECT_TRUE(distinct.insert(full).second) << "a schedule ran twice";
    EXPECT_LE(static_cast<std::size_t>(std::count_if(full.begin(), full.end(), [](unsigned v) { return v != 2; })), 2u);
  }
}

TEST(BoundedSearch, ExhaustiveOnlyWhenTheBoundCutNothing) {
  trace::BoundedSearch search(1);
  auto s = search.next();
  ASSERT_TRUE(s);
  search.ran(*s, {{2, 2, 1}, {2, 2, 1}});
  while ((s = search.next())) search.ran(*s, {{2, 2, s->values.size() > 0 ? s->values[0] : 1u}, {2, 2, 1}});
  EXPECT_FALSE(search.exhaustive()) << "two deviations were possible with bound 1";
  trace::BoundedSearch all(5);
  while (const auto t = all.next()) all.ran(*t, {{2, 2, 1}});
  EXPECT_TRUE(all.exhaustive());
}

// replay/coverage_search.hpp with made-up runs: what the search hands out and keeps.
namespace {

std::vector<trace::OfferedChoice> made_up_run(const trace::CoverageSearch::Schedule& s, std::size_t points) {
  // A run offered `points` binary choices, one per superstep, taking the script's values and
  // the default (1) past it.
  std::vector<trace::OfferedChoice> offered;
  for (std::size_t i = 0; i < points; ++i)
    offered.push_back({3, 2, i < s.values.size() ? s.values[i] : 1u, i + 1});
  return offered;
}

}  // namespace

TEST(CoverageSearch, StartsWithTheDefaultScheduleAndKeepsRunsThatAddTuples) {
  trace::CoverageSearch search(1);
  const trace::CoverageSearch::Schedule first = search.next();
  EXPECT_TRUE(first.values.empty());
  EXPECT_FALSE(first.random_tail) << "the default schedule";
  EXPECT_EQ(search.ran(first, made_up_run(first, 10)), 10u) << "ten supersteps, each its own tuple";
  EXPECT_EQ(search.corpus_size(), 1u);
  EXPECT_EQ(search.ran(first, made_up_run(first, 10)), 0u) << "nothing new: not kept";
  EXPECT_EQ(search.corpus_size(), 1u);
}

TEST(CoverageSearch, MutantsChangeOneToFourChoicesOfTheirParent) {
  trace::CoverageSearch search(3);
  search.ran(search.next(), made_up_run({}, 20));
  int mutants = 0;
  for (int i = 0; i < 200; ++i) {
    const trace::CoverageSearch::Schedule s = search.next();
    if (s.random_tail) continue;  // a fresh run
    ++mutants;
    ASSERT_EQ(s.values.size(), 20u) << "the parent's choices, in full";
    const auto changed = std::count(s.values.begin(), s.values.end(), 0u);
    EXPECT_GE(changed, 1);
    EXPECT_LE(changed, 4);
  }
  EXPECT_GT(mutants, 50) << "mostly mutants, some fresh runs";
}

TEST(CoverageSearch, TupleClassesAreTheDefaultTheFirstOptionAndTheRest) {
  using OC = trace::OfferedChoice;
  const auto t = [](unsigned n, unsigned v, std::uint64_t s) { return trace::CoverageSearch::tuple(OC{2, n, v, s}); };
  EXPECT_EQ(t(5, 2, 1), t(5, 3, 1)) << "two non-default, non-first values are one class";
  EXPECT_NE(t(5, 4, 1), t(5, 3, 1));
  EXPECT_NE(t(5, 0, 1), t(5, 3, 1));
  EXPECT_NE(t(5, 4, 1), t(5, 4, 2)) << "supersteps count apart";
  EXPECT_NE(trace::CoverageSearch::tuple(OC{2, 2, 1, 1}), trace::CoverageSearch::tuple(OC{3, 2, 1, 1}))
      << "choice kinds count apart";
}

TEST(CoverageSearch, SameSeedSameSchedules) {
  trace::CoverageSearch a(11), b(11);
  for (int i = 0; i < 50; ++i) {
    const trace::CoverageSearch::Schedule sa = a.next(), sb = b.next();
    ASSERT_EQ(sa.values, sb.values);
    ASSERT_EQ(sa.tail_seed, sb.tail_seed);
    a.ran(sa, made_up_run(sa, 12));
    b.ran(sb, made_up_run(sb, 12));
  }
  EXPECT_EQ(a.tuples(), b.tuples());
}
