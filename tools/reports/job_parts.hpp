// job_parts.hpp: the pieces of one MPI job's report joined into one run report, for `bsp-check
// merge` (docs/mpi.md, "One report per job"). A job that ends well leaves one report, gathered from
// its ranks. One that a rank ends alone (a crash, bsp_abort, its timeout=) leaves that rank's report
// and the other ranks' partial reports (REPORT.rank<K>, written as their findings came); one that
// its launcher kills leaves the partial reports only. Every piece names the job by the number rank
// 0 drew ("job") and the ranks whose findings it holds ("from_ranks").
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bspcheck::cli {

// A run report as merge read it (partial reports as the run report they stand for).
struct ReportPart {
  std::string path;
  nlohmann::json report;
};

// The parts of each job joined into one report, at its first part's place; reports that name no
// job are left as they are. A part whose ranks earlier parts already hold adds nothing (the same
// report given twice, a rank's partial report beside the report it wrote alone), so the parts
// that hold the most ranks are taken first. The joined report holds each finding once, in the
// order of their supersteps; it completed when a part did; "from_ranks" is the union.
std::vector<ReportPart> join_job_parts(std::vector<ReportPart> parts);

// The ranks whose findings a report holds: its "from_ranks" (none when it names none).
std::vector<unsigned> ranks_held(const nlohmann::json& report);

// The partial reports beside `path`: the files PATH.rank<K> of its folder, by K.
std::vector<std::string> partial_reports_beside(const std::string& path);

// Whether a report is a piece of a job that may have more pieces beside it: an MPI job's report
// that names its job and did not complete.
bool may_have_partial_reports(const nlohmann::json& report);

}  // namespace bspcheck::cli
