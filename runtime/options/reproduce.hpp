// reproduce.hpp: the one builder of the line that runs a run again, in both its forms, and the one
// list of strategy names behind them (option_values.cpp):
//   the driver's:  bsp-check run -p P --seed S [--seeds N] [flags] PROGRAM ARGS...
//   a program's:   BSPCHECK_OPTIONS=seed=S:procs=P:... PROGRAM ARGS...
// `bsp-check run` prints the first with every finding (tools/cli/reproduce_command), a program run
// directly the second (engine/host/program_session.cpp), and bspcheck/testing.hpp the first through
// bspcheck::reproduce_command.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/options/options.hpp"

namespace bspcheck::rt {

// The driver's line for one run (p, seed) of `program` under options `o`: the flags of the options
// table's reproduce and checker rows that differ from their defaults (options.def); with
// seeds > 1, the session of that many seeds from `seed`.
std::string reproduce_run_line(const ProgramOptions& o, int p, std::uint64_t seed, std::uint64_t seeds,
                               const std::string& program, const std::vector<std::string>& args);

// A program's own line: its options as BSPCHECK_OPTIONS, then its command line as it was given.
std::string reproduce_environment_line(const ProgramOptions& o, const std::vector<std::string>& command);

}  // namespace bspcheck::rt
