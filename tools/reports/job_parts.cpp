#include "tools/reports/job_parts.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

namespace bspcheck::cli {

namespace {

std::string job_of(const nlohmann::json& report) {
  return report.contains("job") && report["job"].is_string() ? report["job"].get<std::string>() : "";
}

nlohmann::json join(std::vector<const nlohmann::json*> parts) {
  // The most ranks first; of as many, a whole report before a partial one (it was written last).
  std::stable_sort(parts.begin(), parts.end(), [](const nlohmann::json* a, const nlohmann::json* b) {
    const std::size_t na = ranks_held(*a).size(), nb = ranks_held(*b).size();
    if (na != nb) return na > nb;
    return !a->value("partial", false) && b->value("partial", false);
  });
  nlohmann::json joined = *parts.front();
  nlohmann::json findings = nlohmann::json::array();
  std::set<std::string> seen;
  std::set<unsigned> covered;
  bool completed = false, aborted = false, partial = false;
  unsigned supersteps = 0, nprocs = 0;  // unsigned, as the runtime writes counts (readers check the type)
  std::string abort_message;
  for (const nlohmann::json* part : parts) {
    const std::vector<unsigned> ranks = ranks_held(*part);
    if (!ranks.empty() && std::all_of(ranks.begin(), ranks.end(), [&](unsigned r) { return covered.count(r) > 0; }))
      continue;
    covered.insert(ranks.begin(), ranks.end());
    for (const auto& f : (*part)["findings"])
      if (seen.insert(f.dump()).second) findings.push_back(f);
    completed = completed || part->value("completed", false);
    partial = partial || part->value("partial", false);
    if (part->value("aborted", false) && !aborted) {
      aborted = true;
      abort_message = part->value("abort_message", std::string());
    }
    supersteps = std::max(supersteps, part->value("supersteps", 0u));
    nprocs = std::max(nprocs, part->value("nprocs", 0u));
  }
  std::stable_sort(findings.begin(), findings.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.value("superstep", 0) < b.value("superstep", 0);
  });
  joined["format"] = "bsp-check-report";
  joined["findings"] = std::move(findings);
  joined["from_ranks"] = std::vector<unsigned>(covered.begin(), covered.end());
  joined["completed"] = completed;
  if (nprocs > 0) {
    joined["nprocs"] = nprocs;
    joined["supersteps"] = supersteps;
    joined["aborted"] = aborted;
    joined["abort_message"] = abort_message;
  }
  if (partial && !completed) joined["partial"] = true;
  else joined.erase("partial");
  return joined;
}

}  // namespace

std::vector<unsigned> ranks_held(const nlohmann::json& report) {
  std::vector<unsigned> ranks;
  if (report.contains("from_ranks") && report["from_ranks"].is_array())
    for (const auto& r : report["from_ranks"])
      if (r.is_number_unsigned()) ranks.push_back(r.get<unsigned>());
  return ranks;
}

std::vector<ReportPart> join_job_parts(std::vector<ReportPart> parts) {
  std::map<std::string, std::vector<const nlohmann::json*>> of_job;
  for (const ReportPart& p : parts)
    if (const std::string job = job_of(p.report); !job.empty()) of_job[job].push_back(&p.report);
  std::vector<ReportPart> out;
  std::set<std::string> done;
  for (const ReportPart& p : parts) {
    const std::string job = job_of(p.report);
    if (job.empty()) out.push_back(p);
    else if (done.insert(job).second) out.push_back({p.path, join(of_job[job])});
  }
  return out;
}

std::vector<std::string> partial_reports_beside(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path given(path);
  const std::string prefix = given.filename().string() + ".rank";
  const fs::path folder = given.has_parent_path() ? given.parent_path() : fs::path(".");
  std::map<long long, std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string k = name.substr(prefix.size());
    if (k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos) continue;
    found[std::stoll(k)] = (given.has_parent_path() ? folder / name : fs::path(name)).string();
  }
  std::vector<std::string> paths;
  for (const auto& [k, p] : found) paths.push_back(p);
  return paths;
}

bool may_have_partial_reports(const nlohmann::json& report) {
  return report.value("backend", std::string()) == "mpi" && !job_of(report).empty() &&
         !report.value("completed", false) && !report.value("partial", false);
}

}  // namespace bspcheck::cli
