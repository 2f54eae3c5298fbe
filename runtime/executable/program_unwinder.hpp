// program_unwinder.hpp: the unwinder a C++ executable carries when it is linked with
// -static-libgcc and -static-libstdc++. That copy of libgcc's unwinder keeps its table of register
// sizes in the executable's data and fills it at its own first use, which a separate process
// does for itself. Here each process's copy of the data starts unfilled, and the runtime ends
// processes 1..p-1 at bsp_end by unwinding their stacks with the shared unwinder; that calls the
// program's own personality routine for a frame with a destructor to run, which calls the
// program's _Unwind_SetGR, which aborts on the unfilled table. So every process primes the
// program's unwinder when it starts.
#pragma once

namespace bspcheck::rt {

// Fills the running process's copy of the program's own unwinder's tables: one call of its
// _Unwind_Backtrace that stops at once. Nothing when the executable has no unwinder of its own
// (found once, when the runtime is loaded, from the executable's symbol table; a stripped
// executable has none to read).
void prime_program_unwinder();

// Whether a ProcessExit may unwind through the program's frames: false for an executable with
// its own personality routine and unwinder that could not be primed (stripped). Its processes
// 1..p-1 then end at bsp_end without unwinding, as a separate process's exit() does
// (World::end).
bool program_frames_unwind();

}  // namespace bspcheck::rt
