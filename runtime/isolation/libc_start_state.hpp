// libc_start_state.hpp: the C library state that processes 1..p-1 of a program start from
// (docs/semantics.md, "What processes 1..p-1 start from"). Under an MPI-based BSPlib each process
// runs the program from its start: its rand and drand48 generators and its environment are the
// program's initial ones, or, in a bsp_init program, what main had made of them when it called
// bsp_init. Process 0 goes on with its own. Taken when the runtime loads, and again at bsp_init.
#pragma once

namespace bspcheck::rt {

void take_libc_start_state();
// The environment processes 1..p-1 start with: a copy of the array (glibc's setenv may edit the
// original in place), never freed, so that a process's environ may point at it for good.
char** libc_start_environment();

}  // namespace bspcheck::rt
