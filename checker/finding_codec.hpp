// finding_codec.hpp: the one encoding of a Finding (include/bspcheck/bspcheck.hpp) and of the
// report a run writes for the driver. The runtime encodes, the driver decodes, the driver's
// --json report and `bsp-check merge`-style tools read the same form (docs/cli.md, "JSON").
//
// A finding as JSON:
//   {"rule": "bounds-put", "severity": "error", "message": "...", "processes": [1, 2],
//    "superstep": 3, "locations": [{"file": "put.c", "line": 14, "process": 1, "call": "bsp_put"}]}
// (the driver adds "seed" when it lists a finding with its run). A location of a call made through
// a wrapper also has "stack": [{"function": "Reg::Reg(int*)", "file": "reg.hpp", "line": 8}, ...],
// innermost first.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::checker {

nlohmann::json finding_to_json(const Finding& f);
// Lenient: a field that is absent or of another type keeps its default (a report is written by
// the program's process, which may have been cut short).
Finding finding_from_json(const nlohmann::json& j);

// What a run of a program linked with the runtime reports to the driver (BSPCHECK_REPORT).
struct RunReport {
  std::uint64_t seed = 0;
  int procs_available = 0;
  bool completed = false;  // bsp_end was reached (or the run stopped in an orderly way)
  int nprocs = 0;          // granted by bsp_begin; 0 when it was never called
  int supersteps = 0;
  bool aborted = false;
  std::string abort_message;
  std::uint64_t switches = 0;
  std::vector<std::uint64_t> output_hash;          // per process: a digest of everything it printed
  std::uint64_t trace_bytes = 0, trace_calls = 0;  // when recording
  std::vector<CoverageTuple> coverage;             // the coverage tuples the run reached (sorted)
  std::vector<Finding> findings;
  // Checks the run could not make, one line each saying which and why (an ASan build's early
  // reads of bytes ASan cannot poison, where hardware watchpoints do not fire): the driver says so
  // in its summary and reports, so that a clean run is not taken for a checked one.
  std::vector<std::string> unchecked;
  // hpput destinations whose target had run in the superstep before the call, each in the syntax of
  // the hp_race_probe option (runtime/options/option_values.hpp): bsp-check run makes the run
  // again with them poisoned from their superstep's start (docs/checks.md, "ASan-only rules").
  std::vector<std::string> hp_race_probes;
};

// A run's findings, each with the run's seed (how the report and the driver's --json list them).
nlohmann::json findings_to_json(const std::vector<Finding>& findings, std::uint64_t seed);
// Output digests as hex strings, and back (a malformed entry reads as 0).
nlohmann::json digests_to_json(const std::vector<std::uint64_t>& digests);
std::vector<std::uint64_t> digests_from_json(const nlohmann::json& j);

nlohmann::json run_report_to_json(const RunReport& r);
// Coverage tuples as JSON: [[superstep, kind, outcome], ...] (docs/cli.md, "JSON"); lenient
// reading (an entry of another shape is skipped).
nlohmann::json coverage_to_json(const std::vector<CoverageTuple>& tuples);
std::vector<CoverageTuple> coverage_from_json(const nlohmann::json& j);
// The report in `text`; false when it is not one (empty, cut short, not JSON).
bool run_report_from_json(const std::string& text, RunReport& out);

}  // namespace bspcheck::checker
