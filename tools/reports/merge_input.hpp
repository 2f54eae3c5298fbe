// merge_input.hpp: what `bsp-check merge` takes as input: the --json report of a `bsp-check run`
// session (format bsp-check-runs, run_report_file.hpp), or the run report that a program linked
// with the runtime writes itself when started with BSPCHECK_OPTIONS=report=PATH (checker::RunReport;
// an MPI job's is gathered from all its ranks and also names "backend", "program", "args" and
// "ranks": docs/mpi.md), or a rank's partial report of an MPI job that did not gather. A run
// report is one run of the merge (docs/cli.md, "merge"); the parts of one MPI job are joined into
// one first (job_parts.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "tools/reports/reports.hpp"

namespace bspcheck::cli {

// The run a run report stands for.
struct ProgramRun {
  RunRecord record;               // p, seed, findings, passed and reason, the reproduce line
  std::string program;            // the report's "program" ("" when it names none)
  std::vector<std::string> args;  // its "args"
  std::vector<CoverageTuple> coverage;
  std::vector<std::string> unchecked;  // checks the run could not make (checker::RunReport)
};

// The run of a run report: j is a JSON object with no "format" (or "bsp-check-report", as the
// runtime writes it), "completed" and "findings", every field of the type the runtime writes.
// Nothing when j is not one. p is the report's nprocs (procs_available when bsp_begin was never
// called); the run passed when it completed, was not aborted and has no finding of severity error.
std::optional<ProgramRun> program_run_of(const nlohmann::json& j);

// One input of merge: a session report (`session` an object) or a run report (`run_report` an
// object that program_run_of takes; an MPI rank's partial report, checker/partial_report.hpp, is
// read as the run report it stands for).
struct MergeInput {
  nlohmann::json session;
  nlohmann::json run_report;
  std::size_t dropped_lines = 0;  // of a partial report: lines cut short by a kill, skipped
};
// The input at path; nothing with error set ("PATH: neither a bsp-check --json report ... nor a
// program's run report ...") when it is neither.
std::optional<MergeInput> read_merge_input(const std::string& path, std::string& error);

}  // namespace bspcheck::cli
