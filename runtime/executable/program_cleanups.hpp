// program_cleanups.hpp: whether unwinding a process's stack at bsp_end could run anything of the
// program's. Processes 1..p-1 end at bsp_end by unwinding their stacks with a ProcessExit, so that
// C++ destructors run (docs/semantics.md). Where no frame can have a cleanup, that unwinding runs
// nothing: it only looks up every frame's unwind tables, twice, at about 3 us a process (a tenth of
// a tiny program's run). World::end then ends the process without it.
//
// A frame has a cleanup (a destructor, a catch, a C cleanup attribute under -fexceptions) only in
// an object with exception tables (.gcc_except_table). Those of the runtime's own library and of
// the libraries it needs itself (the C and C++ runtimes, Boost.Context) are not counted: the
// runtime's frames are ended the same way with or without unwinding (World::end_without_unwinding),
// and the C library's tables are its thread-cancellation cleanups, which a separate process's
// exit() does not run either. Every other loaded object counts: the executable and each library
// it loaded, dlopen'ed ones included.
#pragma once

namespace bspcheck::rt {

// True when the executable, or a library loaded for it (not for the runtime), has exception
// tables or could not be read: its frames may have cleanups to run. Worked out when the runtime
// is loaded and again only when libraries were loaded or unloaded since.
bool program_code_has_cleanups();

}  // namespace bspcheck::rt
