#include "tools/explore_report.hpp"

#include "checker/finding_codec.hpp"
#include "tools/run_report_file.hpp"

namespace bspcheck::cli {

bool ExploreReport::open(const std::string& json, const std::string& sarif, const std::string& junit,
                         std::string& error) {
  for (auto [file, out] : {std::pair{&json, &json_}, std::pair{&sarif, &sarif_}, std::pair{&junit, &junit_}}) {
    if (file->empty()) continue;
    out->emplace(*file);
    if (!(*out)->ok()) {
      error = "cannot write " + *file + ": " + (*out)->error();
      return false;
    }
  }
  return true;
}

void ExploreReport::add(int p, std::uint64_t number, const std::string& schedule, const RunOutcome& r, bool passed,
                        const std::vector<Finding>& extra, const std::string& repro) {
  for (const CoverageTuple& t : r.report.coverage) coverage_.add(t);
  RunRecord rec;
  rec.p = p;
  rec.seed = number;
  rec.passed = passed;
  rec.exit_status = r.exit_status;
  rec.seconds = r.seconds;
  rec.findings = r.report.findings;
  rec.findings.insert(rec.findings.end(), extra.begin(), extra.end());
  rec.reason = r.reason;
  rec.repro = repro;
  if (!passed) {
    ++failed_;
    rec.out = r.out;
    rec.err = r.err;
  }
  if (json_) {
    nlohmann::json j = {{"procs", p},         {"seed", number},        {"schedule", schedule},
                        {"exit_status", r.exit_status}, {"passed", passed}, {"seconds", r.seconds},
                        {"reproduce", repro}, {"findings", nlohmann::json::array()}};
    for (const Finding& f : rec.findings) j["findings"].push_back(checker::finding_to_json(f));
    if (r.reported) {
      j["nprocs"] = r.report.nprocs;
      j["supersteps"] = r.report.supersteps;
      const nlohmann::json report = checker::run_report_to_json(r.report);
      if (report.contains("output_hash")) j["output_hash"] = report["output_hash"];
      j["coverage"] = r.report.coverage.size();
    }
    if (!r.reason.empty()) j["reason"] = r.reason;
    runs_.push_back(std::move(j));
  }
  if (sarif_ || junit_) records_.push_back(std::move(rec));
}

bool ExploreReport::write(const SessionInfo& session, const nlohmann::json& options, std::string& error) {
  const auto dump = [](const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); };
  const auto commit = [&](AtomicFile& f, const std::string& text) {
    if (f.commit(text)) return true;
    error = "writing " + f.path() + " failed: " + f.error();
    return false;
  };
  if (json_) {
    const nlohmann::json j = {{"format", "bsp-check-runs"},
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
                              {"interrupted", !session.interrupted_by.empty()}};
    if (!commit(*json_, dump(j) + "\n")) return false;
  }
  if (sarif_ && !commit(*sarif_, dump(sarif_log(session, records_)) + "\n")) return false;
  if (junit_ && !commit(*junit_, junit_xml(session, records_))) return false;
  return true;
}

}  // namespace bspcheck::cli
