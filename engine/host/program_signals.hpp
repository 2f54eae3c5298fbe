// program_signals.hpp: crash and timeout containment in program mode: the handlers of the
// signals that end a process (a crash, a signal the program sent itself, the run's time limit)
// turn them into findings of the running process, reported before the program ends.
#pragma once

namespace bspcheck::rt::program {

// The crash handlers and their signal stack, once per OS process.
void install_crash_handlers();
// The run's time limit (--timeout), from bsp_begin.
void arm_timeout();

}  // namespace bspcheck::rt::program
