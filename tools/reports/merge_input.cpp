#include "tools/reports/merge_input.hpp"

#include <limits>

#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "checker/partial_report.hpp"
#include "runtime/base/shell_word.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/reports/job_parts.hpp"
#include "tools/reports/run_report_file.hpp"

namespace bspcheck::cli {

namespace {

// Every field of a run report that merge reads, of the type the runtime (or the MPI back end)
// writes it: a hand-edited or foreign file is refused, never half-read.
bool is_run_report(const nlohmann::json& j) {
  if (!j.is_object()) return false;
  if (j.contains("format") && j["format"] != "bsp-check-report") return false;
  const auto absent_or = [&](const char* key, auto check) { return !j.contains(key) || check(j[key]); };
  const auto count = [](const nlohmann::json& v) {
    return v.is_number_unsigned() && v.get<std::uint64_t>() <= std::numeric_limits<int>::max();
  };
  const auto strings = [](const nlohmann::json& v) {
    if (!v.is_array()) return false;
    for (const auto& s : v)
      if (!s.is_string()) return false;
    return true;
  };
  bool ok = j.contains("completed") && j["completed"].is_boolean() && j.contains("findings") &&
            j["findings"].is_array() && absent_or("seed", [](const auto& v) { return v.is_number_unsigned(); }) &&
            absent_or("procs_available", count) && absent_or("nprocs", count) && absent_or("supersteps", count) &&
            absent_or("aborted", [](const auto& v) { return v.is_boolean(); }) &&
            absent_or("abort_message", [](const auto& v) { return v.is_string(); }) &&
            absent_or("coverage", [](const auto& v) { return v.is_array(); }) && absent_or("unchecked", strings) &&
            absent_or("backend", [](const auto& v) { return v.is_string(); }) &&
            absent_or("program", [](const auto& v) { return v.is_string(); }) && absent_or("args", strings) &&
            absent_or("ranks", count) && absent_or("job", [](const auto& v) { return v.is_string(); }) &&
            absent_or("from_ranks", [&](const nlohmann::json& v) {
              if (!v.is_array()) return false;
              for (const auto& r : v)
                if (!count(r)) return false;
              return true;
            });
  if (!ok) return false;  // (j["findings"] of a const object without it is undefined behaviour)
  for (const auto& f : j["findings"])
    if (!f.is_object()) return false;
  return true;
}

// The command that runs the job again: `mpiexec -n RANKS PROGRAM ARGS...` for the MPI back end's
// report; for the engine's, the run of its p and seed through the driver (its schedule is the
// seed's); nothing when the report names no program.
std::string repro_of(const nlohmann::json& j, const ProgramRun& run) {
  if (run.program.empty()) return "";
  std::string line = rt::shell_word(run.program);
  for (const std::string& a : run.args) line += " " + rt::shell_word(a);
  if (j.value("backend", std::string()) != "mpi")
    return "bsp-check run -p " + std::to_string(run.record.p) + " --seed " + std::to_string(run.record.seed) + " " +
           line;
  const int ranks = j.value("ranks", run.record.p);
  return "mpiexec -n " + std::to_string(ranks) + " " + line;
}

// "ranks 0 and 2", "rank 1": the ranks whose findings an MPI job's report holds.
std::string ranks_said(const nlohmann::json& j) {
  const std::vector<unsigned> ranks = ranks_held(j);
  if (ranks.empty()) return "its ranks";
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i)
    s += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
  return s;
}

}  // namespace

std::optional<ProgramRun> program_run_of(const nlohmann::json& j) {
  RunOutcome o;
  if (!is_run_report(j) || !checker::run_report_from_json(j.dump(), o.report)) return std::nullopt;
  const checker::RunReport& report = o.report;
  ProgramRun run;
  run.program = j.value("program", std::string());
  if (j.contains("args"))
    for (const auto& a : j["args"]) run.args.push_back(a.get<std::string>());
  run.coverage = report.coverage;
  run.unchecked = report.unchecked;
  // Decided as `bsp-check run` decides a run it made (tools/launch/run_launcher.cpp): a finding
  // fails it when it is an error (a run report does not say whether werror was set: warnings do
  // not fail it), and so does a run cut short. Its exit status is not in the report: 0.
  o.p = report.nprocs > 0 ? report.nprocs : report.procs_available;
  o.seed = report.seed;
  o.reported = true;
  bool errors = false;
  for (const Finding& f : report.findings) errors = errors || checker::finding_fails(f, false);
  if (report.aborted)
    o.reason = "the program called bsp_abort" + (report.abort_message.empty() ? "" : ": " + report.abort_message);
  else if (!report.completed && j.value("backend", std::string()) == "mpi")
    o.reason = "the job did not complete: its report holds what " + ranks_said(j) +
               " wrote before it ended (a rank that wrote nothing had found nothing)";
  else if (!report.completed)
    o.reason =
        "the run did not complete: its report is the one written at its last finding, before the program "
        "ended or was stopped";
  o.passed = !errors && o.reason.empty();
  run.record = run_record(o, "");
  run.record.repro = repro_of(j, run);
  if (j.value("backend", std::string()) == "mpi") run.record.mpi_ranks = j.value("ranks", run.record.p);
  return run;
}

std::optional<MergeInput> read_merge_input(const std::string& path, std::string& error) {
  const std::string what =
      "neither a bsp-check --json report (format bsp-check-runs) nor a program's run report "
      "(BSPCHECK_OPTIONS=report=PATH)";
  const std::optional<std::string> text = read_json_text(path, what, error);
  if (!text) return std::nullopt;
  MergeInput input;
  if (checker::is_partial_report(*text)) {
    if (std::optional<nlohmann::json> r = checker::partial_report_to_run_report(*text, &input.dropped_lines);
        r && is_run_report(*r))
      input.run_report = std::move(*r);
  } else if (nlohmann::json j = nlohmann::json::parse(*text, nullptr, false); j.is_object()) {
    if (is_session_report(j)) input.session = std::move(j);
    else if (is_run_report(j)) input.run_report = std::move(j);
  }
  if (input.session.is_null() && input.run_report.is_null()) {
    error = path + ": " + what;
    return std::nullopt;
  }
  return input;
}

}  // namespace bspcheck::cli
