#include "tools/commands/merge_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "checker/finding_codec.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "tools/reports/atomic_file.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/reports/reports.hpp"
#include "tools/reports/run_report_file.hpp"

namespace bspcheck::cli {

namespace {

// The shards a report covers, with how many runs each planned: {"I/N": planned}.
nlohmann::json shards_of(const nlohmann::json& report) {
  if (report.contains("shards") && report["shards"].is_object()) return report["shards"];
  return {{report.value("shard", std::string("0/1")), report.value("planned", std::uint64_t{0})}};
}

// What the shards' reports hold together: every run once, the shards, and what they must agree on.
struct MergedReports {
  std::map<std::pair<int, std::uint64_t>, nlohmann::json> runs;  // (p, seed) -> run, sorted
  // (p, seed) -> the folder its session ran in, which its relative file names are relative to
  std::map<std::pair<int, std::uint64_t>, std::string> directories;
  std::set<std::string> all_directories;  // the merged report's "directory" when there is one
  nlohmann::json shards = nlohmann::json::object();
  nlohmann::json first;  // program, args and options: every input must agree on them
  rt::CoverageMap coverage;
  bool interrupted = false;
};

// Reads the reports into m; false (the error printed) when one cannot be read or is another session's.
bool read_shards(const std::vector<std::string>& inputs, MergedReports& m) {
  auto& [runs, directories, all_directories, shards, first, coverage, interrupted] = m;
  const bool read = for_each_report(inputs, [&](const std::string& path, const nlohmann::json& report) {
    const nlohmann::json session = {{"program", report["program"]},
                                    {"args", report.value("args", nlohmann::json::array())},
                                    {"options", report.value("options", nlohmann::json::object())}};
    if (first.is_null()) first = session;
    else if (session != first) {
      std::cerr << "bsp-check: error: " << path << ": another program, arguments or checker options than "
                << inputs.front() << ": reports of different sessions cannot be merged\n";
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
      const std::pair<int, std::uint64_t> key{run.value("procs", 0), run.value("seed", std::uint64_t{0})};
      if (runs.try_emplace(key, run).second) directories[key] = directory;
    }
    return true;
  });
  return read;
}

}  // namespace

int merge_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{
      "bsp-check merge: join the --json reports of sharded runs (bsp-check run --shard I/N) into one\n"
      "report of each asked format. Runs are keyed by (p, seed): a run in several inputs counts once,\n"
      "the order of the inputs does not matter. Exit status: 1 when a merged run failed.\n"
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
  app.add_option("REPORT", inputs, "the --json reports to merge")->required();
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;

  ReportFiles reports;
  if (!reports.open(json_file, sarif_file, junit_file)) return 2;

  MergedReports m;
  if (!read_shards(inputs, m)) return 2;
  auto& [runs, directories, all_directories, shards, first, coverage, interrupted] = m;

  nlohmann::json merged_runs = nlohmann::json::array();
  std::vector<RunRecord> records;
  std::uint64_t failed = 0, planned = 0;
  const nlohmann::json* first_failure = nullptr;
  for (const auto& [key, run] : runs) {
    merged_runs.push_back(run);
    records.push_back(record_of(run));
    resolve_relative_files(records.back(), directories[key]);
    if (!records.back().passed) {
      ++failed;
      if (!first_failure) first_failure = &run;
    }
  }
  for (const auto& [shard, n] : shards.items()) planned += n.is_number_unsigned() ? n.get<std::uint64_t>() : 0;

  const auto dump = [](const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  if (reports.json) {
    nlohmann::json j = {{"format", "bsp-check-runs"},
                        {"version", 1},
                        {"program", first["program"]},
                        {"args", first["args"]},
                        {"options", first["options"]},
                        {"runs", merged_runs},
                        {"coverage", coverage_json(coverage)},
                        {"total", runs.size()},
                        {"failed", failed},
                        {"planned", planned},
                        {"shards", shards},
                        {"interrupted", interrupted}};
    // The runs keep their file names as written: relative to the one folder they all ran in.
    if (all_directories.size() == 1 && !all_directories.begin()->empty()) j["directory"] = *all_directories.begin();
    if (!ReportFiles::commit(reports.json, dump(j) + "\n")) return 2;
  }
  SessionInfo session;
  session.program = first["program"].get<std::string>();
  for (const auto& a : first["args"])  // an array (read_report)
    if (a.is_string()) session.args.push_back(a.get<std::string>());
  session.command_line = "bsp-check merge";
  for (const std::string& a : std::vector<std::string>(args.begin() + 1, args.end())) session.command_line += " " + a;
  session.version = version;
  session.source_root = source_root;
  session.werror = first["options"].contains("werror") && first["options"]["werror"].is_boolean() &&
                   first["options"]["werror"].get<bool>();
  for (const RunRecord& r : records) session.seconds += r.seconds;
  if (interrupted) session.interrupted_by = "a signal (in one of the merged sessions)";
  if (reports.sarif && !ReportFiles::commit(reports.sarif, dump(sarif_log(session, records)) + "\n")) return 2;
  if (reports.junit && !ReportFiles::commit(reports.junit, junit_xml(session, records))) return 2;
  std::cerr << "bsp-check: merged " << inputs.size() << " report" << (inputs.size() == 1 ? "" : "s") << " ("
            << shards.size() << " shard" << (shards.size() == 1 ? "" : "s") << "): " << runs.size() << " of " << planned
            << " planned runs, " << failed << " failed";
  if (first_failure)
    std::cerr << "; first failure p=" << (*first_failure)["procs"] << " seed=" << (*first_failure)["seed"]
              << "\n  reproduce: " << record_of(*first_failure).repro;
  std::cerr << "\n";
  return failed ? 1 : 0;
}

}  // namespace bspcheck::cli
