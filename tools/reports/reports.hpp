// reports.hpp: what `bsp-check run` writes about its runs: the text of a finding, the key under
// which identical findings of different runs are one, and the SARIF 2.1.0 and JUnit XML files.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::cli {

// One run of the program, as the reports need it.
struct RunRecord {
  int p = 0;
  std::uint64_t seed = 0;
  bool passed = false;
  int exit_status = 0;
  double seconds = 0;
  std::vector<Finding> findings;  // the runtime's report's, and the driver's own (divergence)
  bool reported = false;          // the run wrote its report: the next four are known
  int nprocs = 0;                 // processes granted by bsp_begin (0: it was never called)
  int supersteps = 0;
  std::vector<std::uint64_t> output_hash;  // per process: a digest of what it printed
  std::size_t coverage = 0;  // how many coverage tuples the run reached (runtime/scheduling/coverage_map.hpp)
  std::string reason;        // why a run failed without (only) findings
  std::string repro;         // the command that reproduces the run
  // A run that merge made from a program's own run report: its number there (0: a run of a
  // session), and for an MPI job's report its world size (0: another), since such a run has no seed.
  std::uint64_t run_report = 0;
  int mpi_ranks = 0;
  std::string out, err;  // captured output of a failing run (bounded), else empty
};

// Everything about the session the reports name.
struct SessionInfo {
  std::string program;
  std::vector<std::string> args;
  std::string command_line;  // how bsp-check was called
  std::string version;       // bsp-check's
  bool werror = false;
  double seconds = 0;
  std::string interrupted_by;          // the signal that stopped the session early ("Interrupt"), or empty
  std::vector<std::string> unchecked;  // checks some run could not make (RunReport::unchecked), once each
  std::string source_root;             // --source-root: SARIF's %SRCROOT% (empty: the working directory)
};

// Findings of different runs with this key are the same finding: rule, every location
// (file, line, process, call) and message. (The text of a finding: checker/finding_text.hpp.)
std::string finding_key(const Finding& f);
// How the reports and summaries name a run: "p=4 seed=12", or for an MPI job, which has no seed,
// "p=3 MPI job (run report 2)".
std::string run_name(const RunRecord& r);

nlohmann::json sarif_log(const SessionInfo& s, const std::vector<RunRecord>& runs);
std::string junit_xml(const SessionInfo& s, const std::vector<RunRecord>& runs);

// Text made safe to embed: valid UTF-8 (bad bytes become U+FFFD) ...
std::string valid_utf8(const std::string& s);
// ... and valid XML 1.0 character data or attribute value (escaped; forbidden controls dropped).
std::string xml_escape(const std::string& s, bool attribute = true);

}  // namespace bspcheck::cli
