// run_report.hpp: the report of a whole MPI job, one file gathered from its ranks
// (BSPCHECK_OPTIONS=report=PATH, docs/mpi.md "One report per job"): the engine's run report
// (checker/finding_codec.hpp: the findings with rank, superstep and source line, the processes
// granted, the supersteps) with what names the job ("backend": "mpi", "program", "args",
// "ranks", "from_ranks"). `bsp-check merge` turns it into the JSON, SARIF and JUnit reports of
// `bsp-check run`. The ranks' findings travel to rank 0 only once, when the job ends: nothing is
// gathered while it runs.
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
  // `job`: the report without its findings (procs_available holds the world's size, the ranks).
  // Collective over comm: every rank's findings reach the rank 0 of comm, which writes the file.
  void gather_and_write(MPI_Comm comm, int pid, const std::vector<Finding>& mine, checker::RunReport job) const;
  // This rank alone, ending the job by itself (a crash, bsp_abort, an exit inside the SPMD part):
  // only its own findings, "from_ranks": [pid], not completed.
  void write_alone(int pid, const std::vector<Finding>& mine, checker::RunReport job) const;

 private:
  void write(const checker::RunReport& job, const std::vector<int>& from_ranks) const;
  std::string path_;
  std::vector<std::string> command_;
};

}  // namespace bspcheck::mpi
