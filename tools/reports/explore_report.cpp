#include "tools/reports/explore_report.hpp"

#include "tools/reports/run_report_file.hpp"

namespace bspcheck::cli {

void ExploreReport::add(int p, std::uint64_t number, const std::string& schedule, const RunOutcome& r, bool passed,
                        const std::vector<Finding>& extra, const std::string& repro) {
  for (const CoverageTuple& t : r.report.coverage) coverage_.add(t);
  RunRecord rec = run_record(r, repro);
  rec.p = p;
  rec.seed = number;
  rec.passed = passed;
  rec.findings.insert(rec.findings.end(), extra.begin(), extra.end());
  if (!passed) {
    ++failed_;
    rec.out = r.out;
    rec.err = r.err;
  }
  if (files_.json) {
    nlohmann::json j = run_record_to_json(rec);
    j["schedule"] = schedule;
    runs_.push_back(std::move(j));
  }
  if (files_.sarif || files_.junit) records_.push_back(std::move(rec));
}

bool ExploreReport::write(const SessionInfo& session, const nlohmann::json& options) {
  const auto dump = [](const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (files_.json) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", session.program},
                        {"args", session.args},
                        {"options", options},
                        {"runs", runs_},
                        {"coverage", coverage_json(coverage_)},
                        {"total", runs_.size()},
                        {"failed", failed_},
                        {"planned", runs_.size()},
                        {"shard", "0/1"},
                        {"directory", session_directory()},
                        {"interrupted", !session.interrupted_by.empty()}};
    if (!session.interrupted_by.empty()) j["interrupted_by"] = session.interrupted_by;  // as run's reports
    if (!ReportFiles::commit(files_.json, dump(j) + "\n")) return false;
  }
  if (files_.sarif && !ReportFiles::commit(files_.sarif, dump(sarif_log(session, records_)) + "\n")) return false;
  if (files_.junit && !ReportFiles::commit(files_.junit, junit_xml(session, records_))) return false;
  return true;
}

}  // namespace bspcheck::cli
