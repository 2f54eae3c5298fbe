// findings.hpp: how a rank of the MPI back end reports a finding: the engine's rule ids
// (include/bspcheck/rules.def) and its one text form (checker/finding_text), printed on the rank's
// stderr as the finding happens. A finding one rank decides alone (a bad pid, a bound) is printed
// by that rank; one the ranks decide together at a sync (a count mismatch) by rank 0 only. Each
// rank keeps what it printed for the job's report (run_report.hpp), and writes it to its partial
// report at once (partial_report_file.hpp), which a job killed before it gathers leaves behind.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "bspcheck/rules.hpp"
#include "mpi/report/partial_report_file.hpp"

namespace bspcheck::mpi {

// A BSPlib call's place in the program, as bsp.h's macros give it.
struct CallSite {
  const char* file = nullptr;
  int line = 0;
  const char* call = "";
};

// A call site in a fixed-size record, for the gathers that detail a disagreement across ranks.
struct SiteRecord {
  char file[240] = {};
  char call[20] = {};
  int line = 0;
};
SiteRecord record_of(const CallSite& site);
Location location_of(const SiteRecord& site, int process);
Location location_of(const CallSite& site, int process);

class Findings {
 public:
  void set_process(int pid) { pid_ = pid; }
  // Where each kept finding is written as it comes (report=PATH); none: only kept.
  void set_partial_report(PartialReportFile* file) { partial_ = file; }
  // disable=RULES, and check=0's rules (the engine's options, docs/mpi.md): never printed nor
  // counted; the rank skips what only they need (a digest, a search).
  void disable(const std::string& rule_id) { disabled_.insert(rule_id); }
  bool enabled(Rule rule) const { return disabled_.count(rule_id(rule)) == 0; }
  // Prints the finding and counts it (an error makes the run fail).
  void report(const Finding& f);
  // A finding of this rank's current call, naming this rank (and `processes` when given).
  void report_here(Rule rule, std::string message, int superstep, const CallSite& site,
                   std::vector<int> processes = {});
  int errors() const { return errors_; }
  // What this rank reported, for the job's report (run_report.hpp): the first kKept of them.
  const std::vector<Finding>& kept() const { return kept_; }
  static constexpr std::size_t kKept = 1000;

 private:
  int pid_ = 0;
  int errors_ = 0;
  PartialReportFile* partial_ = nullptr;
  std::vector<Finding> kept_;
  std::set<std::string> disabled_;
};

}  // namespace bspcheck::mpi
