// run_report_file.hpp: reading the --json report of `bsp-check run` (docs/cli.md, "JSON") back,
// for the commands that take reports as input (merge, stats): with bounded memory, every field
// they read checked for its type, so that a hand-edited or foreign file is refused, never half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "runtime/coverage_map.hpp"
#include "tools/reports.hpp"

namespace bspcheck::cli {

// The report at path, or nothing with error set ("PATH: not a bsp-check --json report ...").
std::optional<nlohmann::json> read_report(const std::string& path, std::string& error);

// One run of a report as the report writers take it (fields of other types take their defaults).
RunRecord record_of(const nlohmann::json& run);

// A session's coverage as its report lists it: {"tuples": N, "reached": [[superstep, kind,
// outcome], ...]} (docs/cli.md, "JSON"); the tuples of a report (none when it lists none), and
// added to a union (merge, stats).
nlohmann::json coverage_json(const rt::CoverageMap& coverage);
std::vector<CoverageTuple> coverage_of(const nlohmann::json& report);
void add_coverage(rt::CoverageMap& coverage, const nlohmann::json& report);

}  // namespace bspcheck::cli
