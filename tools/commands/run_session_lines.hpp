// run_session_lines.hpp: what a `bsp-check run` session says from its counts alone: how each
// finished run is shown (in full, as a count, as its new warnings) and the session's closing line.
// Pure functions of the counts, so that the wording and its decisions have unit tests
// (tests/unit/tools/commands/test_run_session_lines.cpp); tools/commands/run_session.cpp prints them.
#pragma once

#include <cstdint>
#include <cstddef>
#include <string>

#include "tools/launch/shard.hpp"

namespace bspcheck::cli {

// How a finished run of many is shown (a single run streams its output live instead).
enum class RunShown {
  in_full,   // header, output and findings: with -v, or a failing run with a new finding or none at all
  counted,   // a failing run whose findings were all shown in full already: the summary table counts it
  warnings,  // a passing run with new warnings: the header and the warnings, not the output
  nothing,   // a passing run with nothing new
};
RunShown how_run_is_shown(bool verbose, bool passed, bool has_new_findings, bool has_findings);

// "p = 1,2; seeds 1..10" and, in a shard, "; shard 1/4": which runs the session covered.
std::string session_range(const std::string& procs_text, std::uint64_t first_seed, std::uint64_t seeds,
                          const Shard& shard);

// The counts the closing line is made of.
struct SessionCounts {
  std::uint64_t done = 0;  // runs that ended (an interrupted one is not counted)
  std::uint64_t failed = 0;
  std::uint64_t planned = 0;  // the runs of this shard
  std::uint64_t with_warnings = 0;
  double seconds = 0;
};

// The closing line of a session without failures (with its newline). verbose adds the rate, the
// number of runs side by side (jobs) and the coverage tuples reached.
std::string clean_line(const SessionCounts& n, const std::string& range, bool verbose, unsigned jobs,
                       std::size_t coverage_tuples);
// The closing line of a session with failures; it says when the session stopped at the first.
std::string failed_line(const SessionCounts& n, const std::string& range, bool keep_going);
// The closing line of a session a signal stopped (signal: its name, "Interrupt").
std::string interrupted_line(const SessionCounts& n, const std::string& signal);

}  // namespace bspcheck::cli
