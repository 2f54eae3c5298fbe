// partial_report.hpp: a run report written as its findings come, one line at a time, so that a
// process killed from outside (an MPI job ended by its launcher's timeout, a rank killed with its
// job) leaves what it had found: the MPI back end's `REPORT.rank<K>` (docs/mpi.md, "One report
// per job"), read back by `bsp-check merge`.
//
// The first line is the report the process would write alone at that moment, without findings
// (run_report_to_json and what names the job), with "format": "bsp-check-partial-report"; each
// later line is one event: {"finding": {...}} (finding_to_json) or {"aborted": "message"}. Lines
// are appended whole, one write each; a last line cut short by a kill is dropped on reading.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::checker {

inline constexpr const char* kPartialReportFormat = "bsp-check-partial-report";

// The lines, each with its newline.
std::string partial_report_header(nlohmann::json report);
std::string partial_report_finding(const Finding& f);
std::string partial_report_abort(const std::string& message);

// Whether text (a file's first bytes at least) starts as a partial report does.
bool is_partial_report(const std::string& text);

// The run report the lines stand for ("format": "bsp-check-report", "partial": true, not
// completed; "supersteps" at least the last finding's); nothing when the header is not one.
// `dropped`: lines that are not an event (a last line cut short), skipped.
std::optional<nlohmann::json> partial_report_to_run_report(const std::string& text, std::size_t* dropped);

}  // namespace bspcheck::checker
