// determinism_check.hpp: uncontrolled-nondeterminism, the driver's check that a seed is a whole
// description of a run. bsp-check draws every choice BSPlib leaves open from the seed; a program
// that also depends on the wall clock, an unseeded rand, its pid, addresses, uninitialised memory,
// threads or files that change is not reproduced by its seed, and neither are its findings. The
// check runs one (p, seed) twice, recording both, and compares the traces call for call: the
// first call where they part is the finding (shuttle's UncontrolledNondeterminismCheck is the
// model). Only the common length counts: a run stopped by a timeout ends at any point.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bspcheck/bspcheck.hpp"
#include "tools/run_config.hpp"
#include "tools/stdin_feed.hpp"

namespace bspcheck::cli {

// Runs (p, seed) twice (a fresh start each, as every run of a session may be) and returns the
// finding when the two traces differ; nothing when they agree or could not both be recorded.
std::optional<Finding> check_determinism(const RunConfig& c, const std::string& path, int p, std::uint64_t seed,
                                         StdinFeed& in);

}  // namespace bspcheck::cli
