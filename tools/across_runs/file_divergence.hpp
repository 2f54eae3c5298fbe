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
#include "runtime/options/option_values.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

// A run's kept folder: DIR/p<P>-s<SEED>.
std::string kept_run_dir(const std::string& dir, int p, std::uint64_t seed);

// The first difference between the files two runs kept.
struct FileDifference {
  // What differs and where, e.g. `cwd/result.txt, line 3: seed 1 wrote "x", seed 2 wrote "y"`,
  // `cwd/log.bin, byte 17 (...)`, `cwd/a.txt is written under seed 1, not under seed 2`.
  std::string text;
  // The file, as the runs saw it (an absolute path), and the first byte where its contents part
  // (0 for a file only one run left or removed); empty for a directory or a link.
  std::string file;
  std::uint64_t offset = 0;
  // That byte as the first run (kept_a) left it, by the file's kept name: what a replay of the
  // other run's kept trace is held to (expect_file); no name when it cannot be said.
  ExpectedFileByte reference;
};

// The first difference between the files two runs kept (a folder that does not exist: the run
// wrote nothing); nothing when they wrote the same files with the same contents and removed the
// same ones.
std::optional<FileDifference> first_file_difference(const std::string& kept_a, const std::string& kept_b,
                                                    const std::string& name_a, const std::string& name_b);

// Where the runs of seed_a and seed_b wrote a difference: each seed run again watching its byte
// (runtime/isolation/file_byte_watch.hpp). Sets f.superstep, f.processes and f.locations (each
// run's process that last changed the byte, at its last BSPlib call before the write); false
// when no run says.
bool locate_file_difference(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                            std::uint64_t seed_b, const FileDifference& d, StdinFeed& in, Finding& f);

// schedule-divergence: the runs of seeds seed_a (the reference of p) and seed_b of program `path`
// wrote different files, `d` saying where; located by running both again.
Finding file_divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                                std::uint64_t seed_b, const FileDifference& d, StdinFeed& in);

}  // namespace bspcheck::cli
