// file_divergence.hpp: the files a run writes are part of its output (issue 42): compared across
// seeds as standard output is (schedule-divergence) and between two runs of one seed
// (uncontrolled-nondeterminism). Each run keeps what it wrote (runtime/isolation/kept_files.hpp,
// keep_files=DIR); two such folders are compared here: which file differs first (in the order of
// their names), and where in it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bspcheck/bspcheck.hpp"
#include "tools/cli/run_config.hpp"

namespace bspcheck::cli {

// A run's kept folder: DIR/p<P>-s<SEED>.
std::string kept_run_dir(const std::string& dir, int p, std::uint64_t seed);

// The first difference between the files two runs kept (a folder that does not exist: the run
// wrote nothing), e.g. `cwd/result.txt, line 3: seed 1 wrote "x", seed 2 wrote "y"`, `cwd/log.bin,
// byte 17`, `cwd/a.txt is written under seed 1, not under seed 2`; nothing when they wrote the
// same files with the same contents and removed the same ones.
std::optional<std::string> first_file_difference(const std::string& kept_a, const std::string& kept_b,
                                                 const std::string& name_a, const std::string& name_b);

// schedule-divergence: the runs of seeds seed_a (the reference of p) and seed_b wrote different
// files, `differs` saying where (first_file_difference).
Finding file_divergence_finding(const RunConfig& c, int p, std::uint64_t seed_a, std::uint64_t seed_b,
                                const std::string& differs);

}  // namespace bspcheck::cli
