// tools/commands/run_session_lines: how a run session shows each run and how it closes, from its
// counts alone.
#include "tools/commands/run_session_lines.hpp"

#include <gtest/gtest.h>

#include <string>

using bspcheck::cli::RunShown;
using bspcheck::cli::SessionCounts;
using bspcheck::cli::Shard;

// A failing run is shown in full when it brings a new finding or none at all (a crash, a wrong
// exit status); when all its findings were shown already, the summary table counts it instead.
TEST(RunSessionLines, AFailingRunIsShownOnceForWhatItBringsNew) {
  using bspcheck::cli::how_run_is_shown;
  EXPECT_EQ(how_run_is_shown(false, false, true, true), RunShown::in_full);
  EXPECT_EQ(how_run_is_shown(false, false, false, false), RunShown::in_full);
  EXPECT_EQ(how_run_is_shown(false, false, false, true), RunShown::counted);
}

TEST(RunSessionLines, APassingRunShowsOnlyItsNewWarningsUnlessVerbose) {
  using bspcheck::cli::how_run_is_shown;
  EXPECT_EQ(how_run_is_shown(false, true, true, true), RunShown::warnings);
  EXPECT_EQ(how_run_is_shown(false, true, false, true), RunShown::nothing);
  EXPECT_EQ(how_run_is_shown(false, true, false, false), RunShown::nothing);
  for (bool passed : {false, true})
    for (bool fresh : {false, true})
      for (bool any : {false, true})
        EXPECT_EQ(how_run_is_shown(true, passed, fresh, any), RunShown::in_full) << passed << fresh << any;
}

TEST(RunSessionLines, TheRangeNamesTheSeedsAndTheShard) {
  EXPECT_EQ(bspcheck::cli::session_range("2,4", 5, 10, Shard{}), "p = 2,4; seeds 5..14");
  EXPECT_EQ(bspcheck::cli::session_range("3", 1, 1, Shard{2, 8}), "p = 3; seeds 1..1; shard 2/8");
}

TEST(RunSessionLines, ACleanSessionSaysHowManyRunsAndHowLong) {
  SessionCounts n;
  n.done = 1;
  n.planned = 1;
  n.seconds = 0.0412;
  // Two decimals below ten seconds, one above; "run" for one.
  EXPECT_EQ(bspcheck::cli::clean_line(n, "R", false, 4, 9), "bsp-check: 1 run clean (R) in 0.04 s\n");
  n.done = 200;
  n.seconds = 20;
  n.with_warnings = 3;
  EXPECT_EQ(bspcheck::cli::clean_line(n, "R", false, 4, 9),
            "bsp-check: 200 runs clean (R) in 20.0 s, 3 with warnings\n");
  EXPECT_EQ(bspcheck::cli::clean_line(n, "R", true, 4, 9),
            "bsp-check: 200 runs clean (R) in 20.0 s (10 runs/s, -j 4; 9 coverage tuples), 3 with warnings\n");
}

// "stopped at the first failure" only when runs were left and --keep-going was not given.
TEST(RunSessionLines, AFailedSessionSaysWhetherItStoppedEarly) {
  SessionCounts n;
  n.done = 3;
  n.failed = 1;
  n.planned = 10;
  n.seconds = 1.5;
  const std::string stopped = bspcheck::cli::failed_line(n, "R", false);
  EXPECT_EQ(stopped,
            "bsp-check: 1 of 3 runs FAILED (R) in 1.50 s; stopped at the first failure (--keep-going runs all)\n");
  EXPECT_EQ(bspcheck::cli::failed_line(n, "R", true), "bsp-check: 1 of 3 runs FAILED (R) in 1.50 s\n");
  n.done = 10;
  EXPECT_EQ(bspcheck::cli::failed_line(n, "R", false).find("stopped"), std::string::npos);
}

TEST(RunSessionLines, AnInterruptedSessionCountsTheRunsThatEnded) {
  SessionCounts n;
  n.done = 7;
  n.failed = 2;
  n.planned = 100;
  n.seconds = 12.34;
  EXPECT_EQ(bspcheck::cli::interrupted_line(n, "Interrupt"),
            "bsp-check: interrupted by Interrupt after 7 of 100 runs (2 failed) in 12.3 s\n");
}
