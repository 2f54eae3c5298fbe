#include "tools/commands/merge_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "checker/finding_codec.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "tools/reports/atomic_file.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/reports/reports.hpp"
#include "tools/reports/job_parts.hpp"
#include "tools/reports/merge_input.hpp"
#include "tools/reports/run_report_file.hpp"

namespace bspcheck::cli {

namespace {

// The shards a report covers, with how many runs each planned: {"I/N": planned}.
nlohmann::json shards_of(const nlohmann::json& report) {
  if (report.contains("shards") && report["shards"].is_object()) return report["shards"];
  return {{report.value("shard", std::string("0/1")), report.value("planned", std::uint64_t{0})}};
}

// A run's key: (p, seed, n), n 0 for a run of a session and, for a run made from a run report, a
// number of its own (its "run_report"), so that no two jobs are taken for one run.
using RunKey = std::tuple<int, std::uint64_t, std::uint64_t>;

// What the shards' reports hold together: every run once, the shards, and what they must agree on.
struct MergedReports {
  std::map<RunKey, nlohmann::json> runs;  // sorted by key
  // key -> the folder its session ran in, which its relative file names are relative to
  std::map<RunKey, std::string> directories;
  std::set<std::string> all_directories;  // the merged report's "directory" when there is one
  nlohmann::json shards = nlohmann::json::object();
  nlohmann::json first;    // program, args and options: every session report must agree on them
  std::string first_path;  // the session report they come from
  rt::CoverageMap coverage;
  bool interrupted = false;
  std::vector<ProgramRun> program_runs;  // the inputs that were run reports, in their order
  std::set<std::string> unchecked;       // what their runs could not check
};

// Adds a session report's runs to m; false (the error printed) when it is another session's.
bool add_session(const std::string& path, const nlohmann::json& report, MergedReports& m) {
  auto& [runs, directories, all_directories, shards, first, first_path, coverage, interrupted, program_runs,
         unchecked] = m;
  const nlohmann::json session = {{"program", report["program"]},
                                  {"args", report.value("args", nlohmann::json::array())},
                                  {"options", report.value("options", nlohmann::json::object())}};
  if (first.is_null()) {
    first = session;
    first_path = path;
  } else if (session != first) {
    std::cerr << "bsp-check: error: " << path << ": another program, arguments or checker options than " << first_path
              << ": reports of different sessions cannot be merged\n";
    return false;
  }
  add_coverage(coverage, report);                       // the union of the shards' tuples is the whole session's
  const nlohmann::json its_shards = shards_of(report);  // (items() of a temporary would dangle)
  for (const auto& [shard, planned] : its_shards.items()) shards[shard] = planned;
  interrupted = interrupted || report.value("interrupted", false);
  const std::string directory =
      report.contains("directory") && report["directory"].is_string() ? report["directory"].get<std::string>() : "";
  all_directories.insert(directory);
  for (const auto& run : report["runs"]) {
    if (!run.is_object()) continue;
    const RunKey key{run.value("procs", 0), run.value("seed", std::uint64_t{0}),
                     run.value("run_report", std::uint64_t{0})};
    if (runs.try_emplace(key, run).second) directories[key] = directory;
  }
  return true;
}

// Adds the runs of the run reports, each under a number of its own: after the numbers the
// session reports' runs have (a merged report merged again keeps its runs of run reports apart).
void add_program_runs(MergedReports& m) {
  std::uint64_t n = 0;
  for (const auto& [key, run] : m.runs) n = std::max(n, std::get<2>(key));
  for (const ProgramRun& r : m.program_runs) {
    RunRecord record = r.record;
    record.run_report = ++n;
    const RunKey key{record.p, record.seed, n};
    m.runs.emplace(key, run_record_to_json(record));
    m.directories[key] = "";  // the folder the program ran in is not known: its file names are kept
    for (const CoverageTuple& t : r.coverage) m.coverage.add(t);
    m.unchecked.insert(r.unchecked.begin(), r.unchecked.end());
  }
  if (m.first.is_null()) {  // no session report: the first run report names the program
    const ProgramRun* r = m.program_runs.empty() ? nullptr : &m.program_runs.front();
    m.first = {{"program", r ? r->program : std::string()},
               {"args", r ? nlohmann::json(r->args) : nlohmann::json::array()},
               {"options", nlohmann::json::object()}};
  }
}

// Reads one input into m (a session report) or parts (a run report); false (the error printed)
// when it cannot be read or is another session's.
bool read_input(const std::string& path, MergedReports& m, std::vector<ReportPart>& parts) {
  std::string error;
  std::optional<MergeInput> input = read_merge_input(path, error);
  if (!input) {
    std::cerr << "bsp-check: error: " << error << "\n";
    return false;
  }
  if (input->dropped_lines > 0)
    std::cerr << "bsp-check: note: " << path << ": " << input->dropped_lines << " line"
              << (input->dropped_lines == 1 ? "" : "s") << " cut short (the rank was stopped as it wrote), skipped\n";
  if (!input->run_report.is_null()) parts.push_back({path, std::move(input->run_report)});
  else if (!add_session(path, input->session, m)) return false;
  return true;
}

std::string joined_names(const std::vector<std::string>& paths) {
  std::string s;
  for (const std::string& p : paths) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// Reads the inputs into m; false (the error printed) when one cannot be read or is another
// session's. An MPI job's report that did not complete, or that was never written, is joined with
// the partial reports its ranks wrote beside it (job_parts.hpp).
bool read_shards(const std::vector<std::string>& inputs, MergedReports& m) {
  namespace fs = std::filesystem;
  std::vector<ReportPart> parts;
  std::set<std::string> read;  // the files read, by their canonical names
  const auto canonical = [](const std::string& p) {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p : c.string();
  };
  for (const std::string& path : inputs) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      if (const std::vector<std::string> beside = partial_reports_beside(path); !beside.empty()) {
        std::cerr << "bsp-check: note: " << path
                  << " was not written (the job ended before its ranks gathered it): joining the partial reports "
                  << joined_names(beside) << "\n";
        for (const std::string& b : beside)
          if (read.insert(canonical(b)).second && !read_input(b, m, parts)) return false;
        continue;
      }
    }
    if (read.insert(canonical(path)).second && !read_input(path, m, parts)) return false;
  }
  // The other ranks' findings of a job that one rank ended alone are beside its report.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!may_have_partial_reports(parts[i].report)) continue;
    const std::string path = parts[i].path, job = parts[i].report["job"].get<std::string>();
    std::vector<std::string> joined;
    for (const std::string& b : partial_reports_beside(path)) {
      if (read.count(canonical(b))) continue;
      std::string error;
      std::optional<MergeInput> input = read_merge_input(b, error);
      if (!input || input->run_report.is_null() || input->run_report.value("job", std::string()) != job) continue;
      read.insert(canonical(b));
      parts.push_back({b, std::move(input->run_report)});
      joined.push_back(b);
    }
    if (!joined.empty())
      std::cerr << "bsp-check: note: " << path << ": the job did not complete; joining the partial reports "
                << joined_names(joined) << "\n";
  }
  for (ReportPart& part : join_job_parts(std::move(parts))) {
    std::optional<ProgramRun> run = program_run_of(part.report);
    if (!run) {  // every part was a run report when read: the joining broke one
      std::cerr << "bsp-check: error: " << part.path << ": its job's reports could not be joined\n";
      return false;
    }
    m.program_runs.push_back(std::move(*run));
  }
  add_program_runs(m);
  return true;
}

// The summary's "(2 shards)", "(2 shards, 1 run report)", "(3 run reports)".
std::string inputs_said(std::size_t shards, std::size_t run_reports) {
  const auto counted = [](std::size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string said;
  if (shards > 0 || run_reports == 0) said = counted(shards, "shard");
  if (run_reports > 0) said += (said.empty() ? "" : ", ") + counted(run_reports, "run report");
  return "(" + said + ")";
}

// The session the SARIF and JUnit reports name: the merged reports' program and arguments.
SessionInfo merged_session(const MergedReports& m, const std::vector<std::string>& args, const char* version,
                           const std::string& source_root) {
  SessionInfo session;
  session.program = m.first["program"].get<std::string>();
  for (const auto& a : m.first["args"])  // an array (read_report)
    if (a.is_string()) session.args.push_back(a.get<std::string>());
  session.command_line = "bsp-check merge";
  for (const std::string& a : std::vector<std::string>(args.begin() + 1, args.end())) session.command_line += " " + a;
  session.version = version;
  session.source_root = source_root;
  const nlohmann::json& options = m.first["options"];
  session.werror = options.contains("werror") && options["werror"].is_boolean() && options["werror"].get<bool>();
  if (m.interrupted) session.interrupted_by = "a signal (in one of the merged sessions)";
  session.unchecked.assign(m.unchecked.begin(), m.unchecked.end());
  return session;
}

}  // namespace

int merge_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{
      "bsp-check merge: join the --json reports of sharded runs (bsp-check run --shard I/N) into one\n"
      "report of each asked format. Runs are keyed by (p, seed): a run in several inputs counts once,\n"
      "the order of the inputs does not matter. An input may also be the run report a program writes\n"
      "itself (BSPCHECK_OPTIONS=report=PATH, e.g. an MPI job's): each is one run of its own. An MPI job\n"
      "that did not gather its report left its ranks' partial reports PATH.rank<K>: given PATH (written\n"
      "or not), merge joins those of the same job into its run.\n"
      "Exit status: 1 when a merged run failed.\n"
      "\nUsage: bsp-check merge [--json OUT] [--sarif OUT] [--junit OUT] [--source-root DIR] REPORT.json...",
      "bsp-check merge"};
  std::string json_file, sarif_file, junit_file, source_root;
  std::vector<std::string> inputs;
  app.add_option("--json", json_file, "write the merged runs to FILE as JSON (the format of run --json)")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--sarif", sarif_file, "write the distinct findings to FILE as SARIF 2.1.0")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--junit", junit_file, "write FILE as JUnit XML, one test case per run")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  app.add_option("--source-root", source_root, "SARIF file names are relative to DIR (default: the working directory)")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  app.add_option("REPORT", inputs, "the --json reports and run reports to merge")->required();
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;

  ReportFiles reports;
  if (!reports.open(json_file, sarif_file, junit_file)) return 2;

  MergedReports m;
  if (!read_shards(inputs, m)) return 2;

  nlohmann::json merged_runs = nlohmann::json::array();
  std::vector<RunRecord> records;
  std::uint64_t failed = 0, planned = 0;
  const nlohmann::json* first_failure = nullptr;
  for (const auto& [key, run] : m.runs) {
    merged_runs.push_back(run);
    records.push_back(record_of(run));
    resolve_relative_files(records.back(), m.directories[key]);
    if (!records.back().passed) {
      ++failed;
      if (!first_failure) first_failure = &run;
    }
    if (std::get<2>(key) != 0) ++planned;  // a run report is one planned run
  }
  for (const auto& [shard, n] : m.shards.items()) planned += n.is_number_unsigned() ? n.get<std::uint64_t>() : 0;

  const auto dump = [](const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (reports.json) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", m.first["program"]},
                        {"args", m.first["args"]},
                        {"options", m.first["options"]},
                        {"runs", merged_runs},
                        {"coverage", coverage_json(m.coverage)},
                        {"total", m.runs.size()},
                        {"failed", failed},
                        {"planned", planned},
                        {"shards", m.shards},
                        {"interrupted", m.interrupted}};
    // The runs keep their file names as written: relative to the one folder they all ran in.
    if (m.all_directories.size() == 1 && !m.all_directories.begin()->empty())
      j["directory"] = *m.all_directories.begin();
    if (!ReportFiles::commit(reports.json, dump(j) + "\n")) return 2;
  }
  SessionInfo session = merged_session(m, args, version, source_root);
  for (const RunRecord& r : records) session.seconds += r.seconds;
  if (reports.sarif && !ReportFiles::commit(reports.sarif, dump(sarif_log(session, records)) + "\n")) return 2;
  if (reports.junit && !ReportFiles::commit(reports.junit, junit_xml(session, records))) return 2;
  std::cerr << "bsp-check: merged " << inputs.size() << " report" << (inputs.size() == 1 ? "" : "s") << " "
            << inputs_said(m.shards.size(), m.program_runs.size()) << ": " << m.runs.size() << " of " << planned
            << " planned runs, " << failed << " failed";
  if (first_failure) {
    const RunRecord first = record_of(*first_failure);
    std::cerr << "; first failure " << run_name(first);
    if (!first.repro.empty()) std::cerr << "\n  reproduce: " << first.repro;
  }
  std::cerr << "\n";
  return failed ? 1 : 0;
}

}  // namespace bspcheck::cli
