#include "mpi/report/findings.hpp"

#include <cstdio>
#include <cstring>

#include "checker/finding_text.hpp"

namespace bspcheck::mpi {

SiteRecord record_of(const CallSite& site) {
  SiteRecord r;
  if (site.file) std::snprintf(r.file, sizeof r.file, "%s", site.file);
  std::snprintf(r.call, sizeof r.call, "%s", site.call ? site.call : "");
  r.line = site.line;
  return r;
}

Location location_of(const SiteRecord& site, int process) {
  Location l;
  l.file = site.file;
  l.line = site.line;
  l.process = process;
  l.call = site.call;
  return l;
}

Location location_of(const CallSite& site, int process) { return location_of(record_of(site), process); }

void Findings::report(const Finding& f) {
  if (disabled_.count(f.rule)) return;
  if (f.severity == Severity::error) ++errors_;
  if (kept_.size() < kKept) {
    kept_.push_back(f);
    if (partial_) partial_->add(f);
  }
  const std::string text = checker::render_finding(f, "");
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

void Findings::report_here(Rule rule, std::string message, int superstep, const CallSite& site,
                           std::vector<int> processes) {
  Finding f;
  f.rule = rule_id(rule);
  f.severity = rule_severity(rule);
  f.message = std::move(message);
  f.processes = processes.empty() ? std::vector<int>{pid_} : std::move(processes);
  f.superstep = superstep;
  f.locations.push_back(location_of(site, pid_));
  report(f);
}

}  // namespace bspcheck::mpi
