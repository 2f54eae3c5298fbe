// mpi/report/partial_report_file and checker/partial_report: a rank's findings written as they come
// read back as the report the rank would have written alone, whatever stopped it.
#include "mpi/report/partial_report_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/partial_report.hpp"

using bspcheck::Finding;
using bspcheck::mpi::PartialReportFile;

namespace {

std::string temp_path(const char* name) { return ::testing::TempDir() + "/" + name + "." + std::to_string(getpid()); }

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

Finding bad_pid(int process, int superstep) {
  Finding f;
  f.rule = "bad-pid";
  f.severity = bspcheck::Severity::error;
  f.message = "process " + std::to_string(process) + " names process 9";
  f.processes = {process};
  f.superstep = superstep;
  bspcheck::Location at;
  at.file = "ring.c";
  at.line = 12;
  at.process = process;
  at.call = "bsp_put";
  f.locations = {at};
  return f;
}

nlohmann::json header(int rank) {
  return {{"format", "bsp-check-report"},
          {"backend", "mpi"},
          {"job", "00000000000000ab"},
          {"completed", false},
          {"nprocs", 4u},
          {"supersteps", 0u},
          {"from_ranks", {rank}},
          {"findings", nlohmann::json::array()}};
}

}  // namespace

TEST(PartialReportFile, ARankThatFindsNothingWritesNothingAndAStaleFileGoes) {
  const std::string path = temp_path("job.json.rank1");
  { std::ofstream(path) << "an earlier job's\n"; }
  PartialReportFile file;
  file.open(path, header(1));
  EXPECT_FALSE(exists(path));
  file.remove();
  EXPECT_FALSE(exists(path));
}

TEST(PartialReportFile, ReadsBackAsTheRanksReportEvenCutShort) {
  const std::string path = temp_path("job.json.rank2");
  PartialReportFile file;
  file.open(path, header(2));
  file.add(bad_pid(2, 1));
  file.add(bad_pid(2, 3));
  file.aborted("out of cheese");
  // A kill as the rank wrote its next line.
  { std::ofstream(path, std::ios::app) << "{\"finding\":{\"rule\":\"bad"; }
  const std::string text = contents(path);
  ASSERT_TRUE(bspcheck::checker::is_partial_report(text));
  std::size_t dropped = 0;
  const auto r = bspcheck::checker::partial_report_to_run_report(text, &dropped);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(dropped, 1u);
  EXPECT_EQ((*r)["format"], "bsp-check-report");
  EXPECT_EQ((*r)["job"], "00000000000000ab");
  EXPECT_EQ((*r)["from_ranks"], nlohmann::json({2}));
  EXPECT_FALSE((*r)["completed"].get<bool>());
  EXPECT_TRUE((*r)["partial"].get<bool>());
  EXPECT_TRUE((*r)["aborted"].get<bool>());
  EXPECT_EQ((*r)["abort_message"], "out of cheese");
  EXPECT_TRUE((*r)["supersteps"].is_number_unsigned());
  EXPECT_EQ((*r)["supersteps"].get<unsigned>(), 3u);  // at least the last finding's
  ASSERT_EQ((*r)["findings"].size(), 2u);
  EXPECT_EQ((*r)["findings"][0]["superstep"], 1);
  EXPECT_EQ((*r)["findings"][1]["superstep"], 3);
  EXPECT_EQ((*r)["findings"][1]["locations"][0]["line"], 12);
  file.remove();
  EXPECT_FALSE(exists(path));
}

TEST(PartialReportFile, OtherFilesAreNotPartialReports) {
  EXPECT_FALSE(bspcheck::checker::is_partial_report("{\"format\":\"bsp-check-report\",\"findings\":[]}\n"));
  EXPECT_FALSE(bspcheck::checker::partial_report_to_run_report("{\"format\":\"bsp-check-report\"}\n", nullptr));
  EXPECT_FALSE(bspcheck::checker::partial_report_to_run_report("not json\n", nullptr));
}
