// tools/reports/job_parts: the pieces of one MPI job's report (the gathered report, the report of
// the rank that ended the job alone, the ranks' partial reports) joined into one run, each finding
// once; other jobs and reports of no job left apart.
#include "tools/reports/job_parts.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tools/reports/merge_input.hpp"

using namespace bspcheck::cli;

namespace {

nlohmann::json finding(unsigned process, unsigned superstep, const char* rule = "bad-pid") {
  return {{"rule", rule},
          {"severity", "error"},
          {"message", "process " + std::to_string(process)},
          {"processes", {process}},
          {"superstep", superstep},
          {"locations", {{{"file", "ring.c"}, {"line", 12u}, {"process", process}, {"call", "bsp_put"}}}}};
}

// A report as the MPI back end writes it (or as merge reads a rank's partial one), parsed from text
// so that its numbers have the types a file gives them.
nlohmann::json report(const char* job, std::vector<unsigned> ranks, std::vector<nlohmann::json> findings,
                      bool completed = false, bool partial = false) {
  nlohmann::json j = {{"format", "bsp-check-report"},
                      {"backend", "mpi"},
                      {"program", "./ring"},
                      {"args", nlohmann::json::array()},
                      {"ranks", 4u},
                      {"procs_available", 4u},
                      {"nprocs", 4u},
                      {"supersteps", 2u},
                      {"completed", completed},
                      {"aborted", false},
                      {"from_ranks", ranks},
                      {"findings", findings}};
  if (job) j["job"] = job;
  if (partial) j["partial"] = true;
  return nlohmann::json::parse(j.dump());
}

std::vector<nlohmann::json> joined_findings(const ReportPart& part) { return part.report["findings"]; }

}  // namespace

TEST(JobParts, TheRanksPartialReportsJoinTheReportOfTheRankThatEndedTheJob) {
  // Rank 3 crashed and wrote the report alone; ranks 0, 1 and 3 wrote partial reports.
  nlohmann::json alone = report("aa", {3}, {finding(3, 1), finding(3, 2, "crash")});
  alone["aborted"] = false;
  std::vector<ReportPart> parts = {{"job.json.rank0", report("aa", {0}, {finding(0, 1)}, false, true)},
                                   {"job.json", alone},
                                   {"job.json.rank3", report("aa", {3}, {finding(3, 1)}, false, true)},
                                   {"job.json.rank1", report("aa", {1}, {finding(1, 1)}, false, true)}};
  const std::vector<ReportPart> out = join_job_parts(parts);
  ASSERT_EQ(out.size(), 1u);
  const std::vector<nlohmann::json> f = joined_findings(out[0]);
  ASSERT_EQ(f.size(), 4u);               // rank 3's bad-pid once: its partial report adds nothing to its report
  EXPECT_EQ(f.back()["rule"], "crash");  // in the order of the supersteps
  EXPECT_EQ(out[0].report["from_ranks"], nlohmann::json({0, 1, 3}));
  EXPECT_FALSE(out[0].report["completed"].get<bool>());
  // The joined report is a run of merge: it failed, and says which ranks it holds.
  const std::optional<ProgramRun> run = program_run_of(out[0].report);
  ASSERT_TRUE(run.has_value());
  EXPECT_FALSE(run->record.passed);
  EXPECT_EQ(run->record.findings.size(), 4u);
  EXPECT_NE(run->record.reason.find("ranks 0, 1 and 3"), std::string::npos) << run->record.reason;
}

TEST(JobParts, AGatheredReportHoldsEverythingAndTheSameReportTwiceIsOneRun) {
  const nlohmann::json whole = report("bb", {0, 1, 2, 3}, {finding(1, 1), finding(2, 1)}, true);
  const std::vector<ReportPart> out = join_job_parts(
      {{"a.json", whole}, {"a.json.rank1", report("bb", {1}, {finding(1, 1)}, false, true)}, {"copy.json", whole}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(joined_findings(out[0]).size(), 2u);
  EXPECT_TRUE(out[0].report["completed"].get<bool>());
  EXPECT_FALSE(out[0].report.contains("partial"));
  ASSERT_TRUE(program_run_of(out[0].report).has_value());
  EXPECT_TRUE(program_run_of(out[0].report)->record.reason.empty());
}

TEST(JobParts, OtherJobsAndReportsOfNoJobStayApart) {
  const nlohmann::json no_job = report(nullptr, {0, 1, 2, 3}, {finding(0, 1)}, true);
  const std::vector<ReportPart> out = join_job_parts({{"x.json", no_job},
                                                      {"y.json", no_job},
                                                      {"a.json", report("cc", {2}, {finding(2, 1)})},
                                                      {"b.json", report("dd", {2}, {finding(2, 1)})}});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].path, "x.json");
  EXPECT_EQ(out[2].path, "a.json");
}

TEST(JobParts, ThePartialReportsBesideAReportAreFoundByRank) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / ("job_parts." + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const char* name : {"job.json.rank10", "job.json.rank2", "job.json.rank0", "job.json.rankx",
                           "job.json.rank1.part7", "other.json.rank1", "job.json"})
    std::ofstream(dir / name) << "{}\n";
  const std::vector<std::string> found = partial_reports_beside((dir / "job.json").string());
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(fs::path(found[0]).filename(), "job.json.rank0");
  EXPECT_EQ(fs::path(found[1]).filename(), "job.json.rank2");
  EXPECT_EQ(fs::path(found[2]).filename(), "job.json.rank10");
  EXPECT_EQ(partial_reports_beside((dir / "missing.json").string()).size(), 0u);
  fs::remove_all(dir);
}

TEST(JobParts, OnlyAnMpiJobThatDidNotCompleteMayHavePartsBesideIt) {
  EXPECT_TRUE(may_have_partial_reports(report("ee", {1}, {})));
  EXPECT_FALSE(may_have_partial_reports(report("ee", {0, 1, 2, 3}, {}, true)));
  EXPECT_FALSE(may_have_partial_reports(report("ee", {1}, {}, false, true)));  // itself a partial report
  EXPECT_FALSE(may_have_partial_reports(report(nullptr, {1}, {})));
}
