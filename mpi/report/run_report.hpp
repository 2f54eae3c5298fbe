// run_report.hpp: the report of a whole MPI job, one file gathered from its ranks
// (BSPCHECK_OPTIONS=report=PATH, docs/mpi.md "One report per job"): the engine's run report
// (checker/finding_codec.hpp: the findings with rank, superstep and source line, the processes
// granted, the supersteps) with what names the job ("backend": "mpi", "program", "args",
// "ranks", "from_ranks", and "job": a number rank 0 draws at bsp_begin, which the ranks' partial
// reports carry too, partial_report_file.hpp). `bsp-check merge` turns it into the JSON, SARIF and
// JUnit reports of `bsp-check run`, joining the partial reports of a job that did not gather. The
// ranks' findings travel to rank 0 only once, when the job ends: nothing is gathered while it runs.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "checker/finding_codec.hpp"

namespace bspcheck::mpi {

class RunReportFile {
 public:
  // Empty: no report asked for. Rank 0 checks that it can write the path (std::invalid_argument
  // when not: the job ends at bsp_begin, as with any bad option). `command`: the program and its
  // arguments, which the report names (what reproduces the job).
  void open(std::string path, int pid, std::vector<std::string> command);
  bool wanted() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  // The job's number, the same on every rank (drawn by rank 0, sent with its first collective).
  void set_job(std::uint64_t id) { job_ = id; }
  // The report `job` names, as write() writes it, from the ranks given, its findings included.
  nlohmann::json named(const checker::RunReport& job, const std::vector<int>& from_ranks) const;
  // `job`: the report without its findings (procs_available holds the world's size, the ranks).
  // Collective over comm: every rank's findings reach the rank 0 of comm, which writes the file.
  // True on every rank when the file was written (rank 0 says so to all).
  bool gather_and_write(MPI_Comm comm, int pid, const std::vector<Finding>& mine, checker::RunReport job) const;
  // This rank alone, ending the job by itself (a crash, bsp_abort, an exit inside the SPMD part):
  // only its own findings, "from_ranks": [pid], not completed.
  void write_alone(int pid, const std::vector<Finding>& mine, checker::RunReport job) const;

 private:
  // Rank 0's part of gather_and_write: the ranks' findings (JSON arrays, one after the other) joined.
  bool write_gathered(const std::string& all, const std::vector<int>& sizes, const std::vector<int>& offsets,
                      checker::RunReport job) const;
  bool write(const checker::RunReport& job, const std::vector<int>& from_ranks) const;
  std::string path_;
  std::vector<std::string> command_;
  std::uint64_t job_ = 0;
};

}  // namespace bspcheck::mpi
