#include "tools/reports/merge_input.hpp"

#include <limits>

#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "runtime/base/shell_word.hpp"
#include "tools/launch/run_launcher.hpp"
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
            absent_or("ranks", count);
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
  std::optional<nlohmann::json> j = read_json_object(path, what, error);
  if (!j) return std::nullopt;
  MergeInput input;
  if (is_session_report(*j)) input.session = std::move(*j);
  else if (!j->contains("format") || (*j)["format"] == "bsp-check-report") input.run = program_run_of(*j);
  if (input.session.is_null() && !input.run) {
    error = path + ": " + what;
    return std::nullopt;
  }
  return input;
}

}  // namespace bspcheck::cli
