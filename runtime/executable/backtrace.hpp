// backtrace.hpp: the call stack of a crashed process, symbolised (function, file:line where the
// program has debug information) with Boost.Stacktrace over libbacktrace.
#pragma once

#include <cstdio>
#include <string>

namespace bspcheck::rt {

// Prints the current call stack to `out`, one frame per line, the innermost `skip` frames (the
// signal handler's own) left out. Meant for a crash: it allocates, so the caller is about to exit.
void print_backtrace(std::FILE* out, int skip);

// The source file and line of the call whose return address is pc, where the program has debug
// information (false otherwise): the location of a call that no bsp.h macro recorded.
bool call_source(const void* pc, std::string& file, int& line);

}  // namespace bspcheck::rt
