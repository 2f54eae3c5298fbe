// program_end.hpp: how a program in program mode ends: stopped by the run (abort, fatal error,
// crash, timeout), or through exit, with the SPMD part over or not.
#pragma once

namespace bspcheck::rt::program {

// The run cannot go on (abort, fatal error, crash, timeout): show everything, report, exit.
[[noreturn]] void stop_program(int status);
// The program's exit handler, registered by bsp_begin: a finding if the SPMD part had not ended,
// the report, and the exit status the findings ask for.
void at_exit();

}  // namespace bspcheck::rt::program
