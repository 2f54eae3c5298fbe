#include "tools/reports/run_report_file.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "checker/finding_codec.hpp"

namespace bspcheck::cli {

// Reports are read with bounded memory: a JSON report of a very long session is far below this.
constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;

std::optional<std::string> read_json_text(const std::string& path, const std::string& what, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read it";
    return std::nullopt;
  }
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    // A report is a JSON object: anything else (a trace, /dev/zero, a binary) is refused at its
    // first bytes, not after reading a gigabyte of it.
    if (const std::size_t first = text.find_first_not_of(" \t\r\n"); first != std::string::npos && text[first] != '{') {
      error = path + ": " + what;
      return std::nullopt;
    }
    if (text.size() > kMaxReportBytes) {
      error = path + ": larger than 1 GiB, not a bsp-check report";
      return std::nullopt;
    }
  }
  return text;
}

std::optional<nlohmann::json> read_json_object(const std::string& path, const std::string& what, std::string& error) {
  const std::optional<std::string> text = read_json_text(path, what, error);
  if (!text) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = path + ": " + what;
    return std::nullopt;
  }
  return j;
}

bool is_session_report(const nlohmann::json& j) {
  // Every field merge reads, of the type it reads: a hand-edited or foreign file is refused here,
  // never half-read.
  const auto is = [&](const nlohmann::json& o, const char* key, auto check) {
    return o.is_object() && o.contains(key) && check(o[key]);
  };
  bool ok =
      j.is_object() && j.value("format", nlohmann::json()) == "bsp-check-runs" &&
      is(j, "runs", [](const auto& v) { return v.is_array(); }) &&
      is(j, "program", [](const auto& v) { return v.is_string(); }) && (!j.contains("args") || j["args"].is_array()) &&
      (!j.contains("options") || j["options"].is_object()) && (!j.contains("shards") || j["shards"].is_object()) &&
      (!j.contains("coverage") ||
       (j["coverage"].is_object() && (!j["coverage"].contains("reached") || j["coverage"]["reached"].is_array())));
  if (ok)
    for (const auto& run : j["runs"])
      ok = ok && run.is_object() && is(run, "procs", [](const auto& v) { return v.is_number_integer(); }) &&
           is(run, "seed", [](const auto& v) { return v.is_number_unsigned(); }) &&
           is(run, "passed", [](const auto& v) { return v.is_boolean(); }) &&
           (!run.contains("findings") || run["findings"].is_array()) &&
           (!run.contains("run_report") || run["run_report"].is_number_unsigned()) &&
           (!run.contains("mpi_ranks") || run["mpi_ranks"].is_number_unsigned());
  return ok;
}

std::optional<nlohmann::json> read_report(const std::string& path, std::string& error) {
  const std::string what = "not a bsp-check --json report (format bsp-check-runs)";
  std::optional<nlohmann::json> j = read_json_object(path, what, error);
  if (j && !is_session_report(*j)) {
    error = path + ": " + what;
    return std::nullopt;
  }
  return j;
}

nlohmann::json run_identity_to_json(const RunRecord& r) {
  nlohmann::json j = {{"procs", r.p}, {"seed", r.seed}};
  if (r.run_report > 0) j["run_report"] = r.run_report;
  if (r.mpi_ranks > 0) j["mpi_ranks"] = r.mpi_ranks;
  return j;
}

nlohmann::json run_record_to_json(const RunRecord& r) {
  nlohmann::json j = run_identity_to_json(r);
  j["exit_status"] = r.exit_status;
  j["passed"] = r.passed;
  j["seconds"] = r.seconds;
  j["reproduce"] = r.repro;
  j["findings"] = checker::findings_to_json(r.findings, r.seed);
  if (r.reported) {
    j["nprocs"] = r.nprocs;
    j["supersteps"] = r.supersteps;
    if (r.nprocs > 0) j["output_hash"] = checker::digests_to_json(r.output_hash);
    j["coverage"] = r.coverage;  // the session's tuples are listed once, at the top
  }
  if (!r.reason.empty()) j["reason"] = r.reason;
  return j;
}

RunRecord record_of(const nlohmann::json& run) {
  // Fields checked by read_report; the others may be absent or of another type (defaults then).
  const auto text = [&](const char* key) {
    return run.contains(key) && run[key].is_string() ? run[key].get<std::string>() : std::string();
  };
  const auto number = [&](const char* key) {
    return run.contains(key) && run[key].is_number() ? run[key].get<double>() : 0.0;
  };
  RunRecord r;
  r.p = run.value("procs", 0);
  r.seed = run.value("seed", std::uint64_t{0});
  r.passed = run.value("passed", false);
  r.exit_status = static_cast<int>(number("exit_status"));
  r.seconds = number("seconds");
  r.reason = text("reason");
  r.repro = text("reproduce");
  if (run.contains("findings") && run["findings"].is_array())
    for (const auto& f : run["findings"]) r.findings.push_back(checker::finding_from_json(f));
  r.reported = run.contains("nprocs");
  r.nprocs = static_cast<int>(number("nprocs"));
  r.supersteps = static_cast<int>(number("supersteps"));
  if (run.contains("output_hash")) r.output_hash = checker::digests_from_json(run["output_hash"]);
  r.run_report = run.value("run_report", std::uint64_t{0});
  r.mpi_ranks = static_cast<int>(number("mpi_ranks"));
  r.coverage = static_cast<std::size_t>(number("coverage"));
  return r;
}

RunRecord run_record(const RunOutcome& r, const std::string& repro) {
  RunRecord rec;
  rec.p = r.p;
  rec.seed = r.seed;
  rec.passed = r.passed;
  rec.exit_status = r.exit_status;
  rec.seconds = r.seconds;
  rec.findings = r.report.findings;
  rec.reason = r.reason;
  rec.repro = repro;
  rec.reported = r.reported;
  rec.nprocs = r.report.nprocs;
  rec.supersteps = r.report.supersteps;
  rec.output_hash = r.report.output_hash;
  rec.coverage = r.report.coverage.size();
  return rec;
}

std::string session_directory() {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? std::string() : cwd.string();
}

void resolve_relative_files(RunRecord& r, const std::string& directory) {
  namespace fs = std::filesystem;
  if (directory.empty() || fs::path(directory).is_relative()) return;
  const auto resolve = [&](std::string& file) {
    std::error_code ec;
    if (file.empty() || fs::path(file).is_absolute()) return;
    const fs::path under = (fs::path(directory) / file).lexically_normal();
    if (fs::is_regular_file(under, ec)) file = under.string();
  };
  for (Finding& f : r.findings)
    for (Location& l : f.locations) {
      resolve(l.file);
      for (StackFrame& frame : l.stack) resolve(frame.file);
    }
}

bool for_each_report(const std::vector<std::string>& paths,
                     const std::function<bool(const std::string& path, const nlohmann::json& report)>& use) {
  for (const std::string& path : paths) {
    std::string error;
    const std::optional<nlohmann::json> report = read_report(path, error);
    if (!report) {
      std::cerr << "bsp-check: error: " << error << "\n";
      return false;
    }
    if (!use(path, *report)) return false;
  }
  return true;
}

nlohmann::json coverage_json(const rt::CoverageMap& coverage) {
  return {{"tuples", coverage.size()}, {"reached", checker::coverage_to_json(coverage.tuples())}};
}

std::vector<CoverageTuple> coverage_of(const nlohmann::json& report) {
  if (!report.contains("coverage") || !report["coverage"].is_object() || !report["coverage"].contains("reached"))
    return {};
  return checker::coverage_from_json(report["coverage"]["reached"]);
}

void add_coverage(rt::CoverageMap& coverage, const nlohmann::json& report) {
  for (const CoverageTuple& t : coverage_of(report)) coverage.add(t);
}

}  // namespace bspcheck::cli
