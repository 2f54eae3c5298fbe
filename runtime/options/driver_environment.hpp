// driver_environment.hpp: what the bsp-check driver tells a run through the environment
// (BSPCHECK_OPTIONS, BSPCHECK_REPORT, BSPCHECK_REPRO, BSPCHECK_PREFIX), taken out of the
// environment when the runtime library loads, before the program's constructors and main, and
// kept here. The program's environment is then the one it would have outside bsp-check: a program
// that prints it prints the same in every run of a seed (the driver names a run's temporary files
// there), and a program it starts (system, exec) is not told to write this run's report.
//
// A program started without the driver reads its options the same way (BSPCHECK_OPTIONS=...
// ./prog). A fork server's worker sets a run's values here (runtime/isolation/fork_server.cpp), not in the
// environment.
#pragma once

#include "runtime/options/options.hpp"

namespace bspcheck::rt {

enum class DriverVariable { options, report, repro, prefix, count_ };

// The value the driver gave (or a worker set for its run); nullptr when there is none.
const char* driver_variable(DriverVariable v);

// A run's value: `value` must outlive the run (a worker's points into its request).
void set_driver_variable(DriverVariable v, const char* value);

// A program's options from these: BSPCHECK_OPTIONS, BSPCHECK_PREFIX (a prefix may contain ':'),
// BSPCHECK_REPORT and BSPCHECK_REPRO. On a bad value prints one line and exits with status 2.
ProgramOptions program_options_from_environment();

}  // namespace bspcheck::rt
