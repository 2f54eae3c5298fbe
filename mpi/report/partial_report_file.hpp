// partial_report_file.hpp: one rank's findings on disk as they come (REPORT.rank<K> beside the
// job's report=REPORT; checker/partial_report.hpp gives the lines). The job's one report is
// gathered at its end (run_report.hpp); a job that its launcher kills, or that one rank ends
// alone, never gathers, and without these files the other ranks' findings were lost with it.
// `bsp-check merge REPORT` joins them (docs/mpi.md, "One report per job").
//
// A rank that finds nothing writes nothing: the file is made at its first finding. It is removed
// when the job's report was written whole, so that a job that ends well leaves REPORT alone.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::mpi {

class PartialReportFile {
 public:
  // `path`: REPORT.rank<K>; one an earlier job left there is removed. `header`: the report this
  // rank would write alone, without findings (what names the job).
  void open(std::string path, nlohmann::json header);
  bool wanted() const { return !path_.empty(); }
  void add(const Finding& f);
  void aborted(const std::string& message);
  // The job's report holds what this one held: it goes.
  void remove();

 private:
  void append(const std::string& line);
  std::string path_;
  nlohmann::json header_;
  int fd_ = -1;
  bool failed_ = false;  // said once; the rank goes on
};

}  // namespace bspcheck::mpi
