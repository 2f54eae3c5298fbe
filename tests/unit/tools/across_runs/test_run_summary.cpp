// tools/across_runs/run_summary: a finding repeated by many runs is shown once and counted.
#include "tools/across_runs/run_summary.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using bspcheck::Finding;
using bspcheck::Location;

namespace {

Finding finding(const std::string& rule, const std::string& message, int line) {
  Finding f;
  f.rule = rule;
  f.severity = bspcheck::Severity::error;
  f.message = message;
  f.processes = {1};
  f.superstep = 2;
  Location at;
  at.file = "prog.c";
  at.line = line;
  at.process = 1;
  at.call = "bsp_put";
  f.locations = {at};
  return f;
}

std::string table_of(const bspcheck::cli::FindingSummary& s, std::uint64_t with, std::uint64_t runs) {
  testing::internal::CaptureStderr();
  s.print_table(with, runs);
  return testing::internal::GetCapturedStderr();
}

}  // namespace

TEST(FindingSummary, ShowsAFindingOnceAcrossRuns) {
  bspcheck::cli::FindingSummary s;
  const std::vector<Finding> run = {finding("bounds-put", "writes past the end", 12)};
  EXPECT_EQ(s.add_run(run, 4, 1, 1, false).size(), 1u);
  EXPECT_TRUE(s.add_run(run, 4, 2, 2, false).empty());  // the same finding: counted, not shown
  const std::vector<Finding> other = {finding("bounds-put", "writes past the end", 13)};
  EXPECT_EQ(s.add_run(other, 4, 3, 3, false).size(), 1u);  // another line: shown
  EXPECT_FALSE(s.empty());
}

TEST(FindingSummary, TableCountsRunsPerRuleAndLocation) {
  bspcheck::cli::FindingSummary s;
  s.add_run({finding("bounds-put", "a", 12)}, 2, 5, 1, false);
  // The same run reporting it twice counts one run; another message is a second variant.
  s.add_run({finding("bounds-put", "b", 12), finding("bounds-put", "b", 12)}, 3, 6, 2, false);
  s.add_run({finding("tag-size-mismatch", "c", 20)}, 3, 7, 3, false);
  const std::string table = table_of(s, 3, 10);
  EXPECT_NE(table.find("findings in 3 of 10 runs"), std::string::npos) << table;
  EXPECT_NE(table.find("p=2 seed=5 (2 variants)"), std::string::npos) << table;
  EXPECT_NE(table.find("p=3 seed=7"), std::string::npos) << table;
  // Two rows, in the order first seen.
  EXPECT_LT(table.find("bounds-put"), table.find("tag-size-mismatch")) << table;
}
