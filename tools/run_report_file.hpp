// run_report_file.hpp: reading the --json report of `bsp-check run` (docs/cli.md, "JSON") back,
// for the commands that take reports as input (merge, stats): with bounded memory, every field
// they read checked for its type, so that a hand-edited or foreign file is refused, never half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "tools/reports.hpp"

namespace bspcheck::cli {

// The report at path, or nothing with error set ("PATH: not a bsp-check --json report ...").
std::optional<nlohmann::json> read_report(const std::string& path, std::string& error);

// One run of a report as the report writers take it (fields of other types take their defaults).
RunRecord record_of(const nlohmann::json& run);

}  // namespace bspcheck::cli
