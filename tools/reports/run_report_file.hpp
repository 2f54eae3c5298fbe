// run_report_file.hpp: reading the --json report of `bsp-check run` (docs/cli.md, "JSON") back,
// for the commands that take reports as input (merge, stats): with bounded memory, every field
// they read checked for its type, so that a hand-edited or foreign file is refused, never half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/scheduling/coverage_map.hpp"
#include "tools/reports/reports.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

// The report at path, or nothing with error set ("PATH: not a bsp-check --json report ...").
std::optional<nlohmann::json> read_report(const std::string& path, std::string& error);
// The JSON object in the file at path, read with bounded memory; nothing, with error set, when the
// file cannot be read, is larger than 1 GiB or holds no JSON object ("PATH: " + what, what saying what it is not).
std::optional<nlohmann::json> read_json_object(const std::string& path, const std::string& what, std::string& error);
// The same file's text, when it starts as a JSON object does (a partial report's lines too).
std::optional<std::string> read_json_text(const std::string& path, const std::string& what, std::string& error);
// Is j a session's --json report, every field merge and stats read of the type they read?
bool is_session_report(const nlohmann::json& j);

// The one encoding of a run in a report (docs/cli.md, "JSON"): run --json writes it, merge and
// stats read it back. out and err are not part of it.
nlohmann::json run_record_to_json(const RunRecord& r);
// What names a run in a report: its p and seed, and for an MPI job (merged from its run report),
// which has no seed, the number of that report and its ranks. The start of run_record_to_json's
// object, and a SARIF result's list of the runs that showed it.
nlohmann::json run_identity_to_json(const RunRecord& r);
// One run of a report as the report writers take it (fields of other types take their defaults).
RunRecord record_of(const nlohmann::json& run);
// The record of a run the driver made: its outcome (the runtime's report, with the driver's own
// findings added to it) and the command that reproduces it. out and err are left empty.
RunRecord run_record(const RunOutcome& r, const std::string& repro);

// The folder a session runs in, absolute: its report's "directory", against which the relative
// file names of its findings are read (the runtime names files under the folder the program
// started in relative to it).
std::string session_directory();
// Names a relative file of r's findings (locations and their stacks) by its path under
// `directory`, where it exists there: so that a report read elsewhere (merge, in another folder
// than the sessions ran in) still finds the files, and SARIF names them under its %SRCROOT%.
void resolve_relative_files(RunRecord& r, const std::string& directory);

// Reads each report in turn and hands it to `use` with its path. Stops at the first report that
// cannot be read (said on stderr) or that `use` refuses (it returns false, having said why).
// True when every report was used.
bool for_each_report(const std::vector<std::string>& paths,
                     const std::function<bool(const std::string& path, const nlohmann::json& report)>& use);

// A session's coverage as its report lists it: {"tuples": N, "reached": [[superstep, kind,
// outcome], ...]} (docs/cli.md, "JSON"); the tuples of a report (none when it lists none), and
// added to a union (merge, stats).
nlohmann::json coverage_json(const rt::CoverageMap& coverage);
std::vector<CoverageTuple> coverage_of(const nlohmann::json& report);
void add_coverage(rt::CoverageMap& coverage, const nlohmann::json& report);

}  // namespace bspcheck::cli
