// tools/commands/shrink_command: which failures are the same, and what shrink reports of the
// choices it kept.
#include "tools/commands/shrink_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using bspcheck::trace::RecordedChoice;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(ShrinkCommand, ASameFailureHasTheTargetRule) {
  using bspcheck::cli::same_failure;
  EXPECT_TRUE(same_failure("put-overlap", {"lost-message", "put-overlap"}));
  EXPECT_FALSE(same_failure("put-overlap", {"lost-message"}));
  EXPECT_FALSE(same_failure("put-overlap", {}));
  // A run that failed without an error finding (a crash) is kept only by runs failing likewise.
  EXPECT_TRUE(same_failure("", {}));
  EXPECT_FALSE(same_failure("", {"put-overlap"}));
}

// The kept choices are described as the minimal run made them (its own trace), by position;
// the critical superstep is the last kept choice's.
TEST(ShrinkCommand, TheReportDescribesTheKeptChoicesAsTheMinimalRunMadeThem) {
  const std::vector<RecordedChoice> choices = {
      {2, 1, 0, 0, "bsp_send"}, {2, 3, 1, 1, "bsp_put"}, {2, 0, 2, 2, "bsp_sync"}, {2, 5, 3, 3, "bsp_get"}};
  const std::vector<RecordedChoice> minimal = {{2, 1, 0, 0, "bsp_send"}, {2, 7, 4, 1, "bsp_move"}};
  const std::string text = bspcheck::cli::shrink_report("with put-overlap", {1, 3}, choices, minimal, 12, 2000, false);
  EXPECT_TRUE(has(text, "the run fails with put-overlap with 2 of its 4 scheduling choices (12 runs)\n")) << text;
  EXPECT_TRUE(has(text, "  superstep 4, after process 1's bsp_move: message order -> 7\n")) << text;
  // Past the minimal trace's end, the recorded choice.
  EXPECT_TRUE(has(text, "  superstep 3, after process 3's bsp_get: message order -> 5\n")) << text;
  EXPECT_TRUE(has(text, "  critical superstep: 3\n")) << text;
  EXPECT_FALSE(has(text, "no choice matters")) << text;
  EXPECT_FALSE(has(text, "--max-runs")) << text;
}

TEST(ShrinkCommand, WithNoChoiceKeptTheReportSaysTheDefaultScheduleFails) {
  const std::vector<RecordedChoice> choices = {{2, 1, 0, 0, "bsp_send"}};
  const std::string plain = bspcheck::cli::shrink_report("with put-overlap", {}, choices, {}, 2000, 2000, false);
  EXPECT_TRUE(has(plain, "(2000 runs, stopped at --max-runs)")) << plain;
  EXPECT_TRUE(has(plain, "the default schedule (every choice at its default) fails too")) << plain;
  EXPECT_FALSE(has(plain, "critical superstep")) << plain;
  const std::string diverged = bspcheck::cli::shrink_report("with schedule-divergence", {}, choices, {}, 3, 2000, true);
  EXPECT_TRUE(has(diverged, "the default schedule's output differs from the reference run's too")) << diverged;
}
