// backtrace.hpp: the call stack of a crashed process, symbolised (function, file:line where the
// program has debug information) by the one symboliser (symbolise.hpp).
#pragma once

#include <cstdio>
#include <string>

namespace bspcheck::rt {

// Prints the current call stack to `out`, one frame per line, the innermost `skip` frames (the
// signal handler's own) left out. Meant for a crash: it allocates, so the caller is about to exit.
void print_backtrace(std::FILE* out, int skip);

}  // namespace bspcheck::rt
