// output_divergence.hpp: schedule-divergence across the runs of the driver. The runtime digests
// each process's output; the comparison (checker/output_comparison.hpp) takes every clean run of
// a p against the first clean run of that p. A difference is run again, both seeds with
// per-process prefixes, to name the first differing line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "checker/output_comparison.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

// Is the comparison on for this session (not --schedule-dependent-output, --no-check, or the
// rule disabled)?
bool compare_outputs_wanted(const RunConfig& c);

// Compares a clean run's per-process output digests with the reference of its p
// (checker/output_comparison.hpp). Returns the first process whose output differs, with the
// reference's seed.
std::optional<std::pair<int, std::uint64_t>> compare_outputs(checker::OutputComparison& outputs, const RunOutcome& r);

// The finding for process `pid` printing differently under seed_a and seed_b (p processors):
// both runs again, prefixed, and their first differing line. When a seed's run again does not
// print what it printed the first time (digests_a, digests_b: the first runs'), the output is
// not a function of the seed and the finding is uncontrolled-nondeterminism instead (its
// `rule` says which).
// `line`, when given, is set to seed_b's first line that differs from seed_a's (first_differing_line).
Finding divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                           std::uint64_t seed_b, int pid, StdinFeed& in, const std::vector<std::uint64_t>& digests_a,
                           const std::vector<std::uint64_t>& digests_b, std::optional<ExpectedLine>* line = nullptr);

// The --prefix that puts each line's superstep and the process's last BSPlib call (with its
// site) before it, for locate_difference.
extern const char* const kContextPrefix;

// The same call site of the same process (a divergence located alike under both seeds is named once).
bool same_call_site(const Location& x, const Location& y);

// Where process pid's outputs of two runs captured with kContextPrefix part: sets f.superstep
// and f.locations (each run's last BSPlib call before its differing line, or before its last
// line when one output is a prefix of the other); false when they do not part.
bool locate_difference(const RunOutcome& a, const RunOutcome& b, int pid, Finding& f);

// Where process pid's output parts between a run of seed_a and one of seed_b (the same seed twice
// for uncontrolled-nondeterminism): both run again with the superstep and last BSPlib call in
// every line's prefix. Sets f.superstep and f.locations (each run's last call before its
// differing line); false when the two runs print the same this time.
bool locate_output_difference(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                              std::uint64_t seed_b, int pid, StdinFeed& in, Finding& f);

// The command that reproduces a divergence between the reference seed_a and seed_b: the session
// of p from seed_a to seed_b (each seed alone runs clean; the reference is the first clean run of
// p, so this session fails the same way, or earlier).
std::string divergence_reproduce(const RunConfig& c, int p, std::uint64_t seed_a, std::uint64_t seed_b);

// "first difference on stdout, line 3: NAME_A prints "x", NAME_B prints "y"": the first line where
// process pid's output differs between two runs captured with the prefix "[pid] ".
std::string first_output_difference(const RunOutcome& a, const RunOutcome& b, int pid, const std::string& name_a,
                                    const std::string& name_b);

// The first line where process pid's output under `failing` differs from the reference run's (both
// captured with the prefix "[pid] "): what a kept trace of the divergence carries, so that its
// replay reports the divergence where that line is written (Options::expected_line).
std::optional<ExpectedLine> first_differing_line(const RunOutcome& reference, const RunOutcome& failing, int pid);

// The lines process `pid` printed, from output captured with the prefix "[pid] ".
std::vector<std::string> lines_of(const std::string& text, int pid);

}  // namespace bspcheck::cli
