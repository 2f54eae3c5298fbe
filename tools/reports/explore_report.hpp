// explore_report.hpp: the --json, --sarif and --junit reports of `bsp-check explore`, in the
// forms `run` writes (docs/cli.md, "JSON"), so that merge and stats read them too: one entry per
// schedule run, whose "seed" is its number in the search (1, 2, ...) and "schedule" says where
// it came from; the options name the search ("strategy": "bounded" or "coverage"); the session's
// coverage tuples, as run lists them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/scheduling/coverage_map.hpp"
#include "tools/reports/atomic_file.hpp"
#include "tools/reports/reports.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

class ExploreReport {
 public:
  // Opens the files asked for (empty: not asked) before the first run: a typo should not cost a
  // search. False after saying on stderr which file cannot be written.
  bool open(const std::string& json, const std::string& sarif, const std::string& junit) {
    return files_.open(json, sarif, junit);
  }

  // One schedule's run: r, with the driver's own findings (schedule-divergence) in `extra`.
  void add(int p, std::uint64_t number, const std::string& schedule, const RunOutcome& r, bool passed,
           const std::vector<Finding>& extra, const std::string& repro);

  const rt::CoverageMap& coverage() const { return coverage_; }
  std::uint64_t failed() const { return failed_; }

  // Writes every report asked for; false after saying on stderr that a write failed.
  bool write(const SessionInfo& session, const nlohmann::json& options);

 private:
  ReportFiles files_;
  nlohmann::json runs_ = nlohmann::json::array();
  std::vector<RunRecord> records_;
  rt::CoverageMap coverage_;
  std::uint64_t failed_ = 0;
};

}  // namespace bspcheck::cli
