// asan_recovery.hpp: the AddressSanitizer options under which a program goes on after a warning its
// poisoning caught (get-dst-early-read: a bsp_get's destination read before the sync, which is
// defined), shared by the runtime (which names them when ASan halts anyway) and the driver (which
// sets them for every program it starts, before the user's own ASAN_OPTIONS, which may override them).
//
// halt_on_error=0: a recoverable report (a program built with -fsanitize-recover=address, as
//   bspcc and the CMake package build it) returns to the program; the runtime's report callback
//   (asan_poisoning.cpp) ends the program itself at every report that is not such a warning, so
//   that heap overflows, use-after-free, hp-dst-read and the rest stop the run as before.
// suppress_equal_pcs=0: ASan would otherwise skip, unreported and not stopped, every later error
//   at an instruction that once reported (a real overflow at the line that read a destination
//   early), and halt after 25 such instructions.
#pragma once

namespace bspcheck::rt {

inline constexpr char kAsanRecoverOptions[] = "halt_on_error=0:suppress_equal_pcs=0";

}  // namespace bspcheck::rt
