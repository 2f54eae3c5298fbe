// session_files.hpp: what `bsp-check run` does with the files its runs keep (issue 42,
// runtime/isolation/kept_files.hpp): the first failing run's, kept beside its trace and named by
// the summary, and each clean run's, compared with its p's first clean run's (schedule-divergence).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "bspcheck/bspcheck.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

// Where the first failing run, run again to record it, keeps its files: --keep-files DIR, else
// <trace dir>/<base>-files (also when the session keeps every run's in a folder of its own:
// files_temporary).
std::string failing_files_dir(const RunConfig& c, const std::string& base, bool files_temporary);

// The summary's `files:` line for that run's folder in `dir`, when it wrote anything; else the
// folder goes (and `dir` too, when it is the driver's and empty).
void name_failing_files(const RunConfig& c, const std::string& dir, int p, std::uint64_t seed, bool files_temporary);

// schedule-divergence of the files of the clean run (p, seed) of program `path` against the first
// clean run of p (reference: p's seed, set by the first call for p); a difference is located by
// running both seeds again. *expected is set to the differing byte as the reference run left it
// (for the kept trace of the run: expect_file).
std::optional<Finding> compare_files(const RunConfig& c, const std::string& path, int p, std::uint64_t seed,
                                     std::map<int, std::uint64_t>& reference, bool files_temporary, StdinFeed& in,
                                     ExpectedFileByte* expected);

}  // namespace bspcheck::cli
