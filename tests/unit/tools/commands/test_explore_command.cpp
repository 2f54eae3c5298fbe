// tools/commands/explore_command: the reproduce line of a schedule and the closing line of a
// search, from the flags and the counts.
#include "tools/commands/explore_command.hpp"

#include <gtest/gtest.h>

#include <string>

using bspcheck::cli::ExploreFlags;
using bspcheck::cli::RunConfig;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// Each p's search is its own: the line names that p and the schedules of its search alone, and
// the strategy's own parameter (a bound, or a seed).
TEST(ExploreCommand, TheReproduceLineRunsThatSearchAtThatP) {
  ExploreFlags f;
  f.bound = 3;
  RunConfig c;
  c.program = "./prog";
  c.args = {"a b"};
  const std::string bounded = bspcheck::cli::explore_reproduce(f, c, 8, 17);
  EXPECT_EQ(bounded, "bsp-check explore --strategy bounded --bound 3 -p 8 --max-runs 17 ./prog 'a b'");
  f.strategy = "coverage";
  f.seed = 42;
  f.grant_fewer = true;
  f.schedule_dependent_output = true;
  const std::string coverage = bspcheck::cli::explore_reproduce(f, c, 2, 5);
  EXPECT_TRUE(has(coverage, "--strategy coverage --seed 42 -p 2 --max-runs 5 --grant-fewer")) << coverage;
  EXPECT_TRUE(has(coverage, "--schedule-dependent-output ./prog")) << coverage;
  EXPECT_FALSE(has(coverage, "--bound")) << coverage;
}

// Only a bounded search can exhaust its space; when it did not, the line says which limit stopped it.
TEST(ExploreCommand, TheVerdictSaysWhetherTheSpaceWasExhausted) {
  ExploreFlags f;
  f.procs = "2-4";
  f.max_runs = 100;
  const std::string all = bspcheck::cli::explore_verdict(f, 40, 7, true);
  EXPECT_EQ(all,
            "bsp-check: explore: 40 distinct schedules, none fails (p = 2-4, bound 2); 7 distinct (superstep, choice, "
            "outcome) tuples reached; the space was exhausted: every schedule that can differ was run\n");
  EXPECT_TRUE(has(bspcheck::cli::explore_verdict(f, 100, 7, false), "stopped at --max-runs"));
  EXPECT_TRUE(has(bspcheck::cli::explore_verdict(f, 60, 7, false), "raise --bound"));
  f.strategy = "coverage";
  f.seed = 9;
  const std::string coverage = bspcheck::cli::explore_verdict(f, 100, 31, false);
  EXPECT_EQ(coverage,
            "bsp-check: explore: 100 coverage-guided schedules, none fails (p = 2-4, seed 9); 31 distinct "
            "(superstep, choice, outcome) tuples reached\n");
}
