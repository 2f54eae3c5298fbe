// explore_command.hpp: `bsp-check explore [--bound K] PROGRAM`: every schedule that differs in
// at most K of the choices that can change what the program sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/cli/run_config.hpp"

namespace bspcheck::cli {

// args[0] is "explore". Returns 0 when no schedule failed, 1 at the first failure (with its
// trace), 2 for bad usage.
int explore_command(const std::vector<std::string>& args, const char* version);

// explore's flags, as given (their defaults are --help's).
struct ExploreFlags {
  std::string strategy = "bounded";  // or "coverage"
  std::size_t bound = 2, max_runs = 2000;
  std::uint64_t seed = 1;
  double timeout = 0;
  std::string procs = "4", trace_dir = ".", json_file, sarif_file, junit_file, source_root;
  std::string from;  // --from: an MPI job's records, whose run is the search's default schedule
  bool quiet = false, verbose = false, schedule_dependent_output = false, grant_fewer = false;
};

// The command that runs the search at p again up to its n-th schedule there: each p's search is
// its own (the coverage search's seed is --seed with p mixed in). c: the program and its arguments.
std::string explore_reproduce(const ExploreFlags& f, const RunConfig& c, int p, std::size_t n);

// The closing line of a search in which no schedule failed: `runs` schedules, `tuples` coverage
// tuples reached; for the bounded search, whether the space was exhausted and if not, why.
std::string explore_verdict(const ExploreFlags& f, std::size_t runs, std::size_t tuples, bool exhausted);

}  // namespace bspcheck::cli
