// symbolise.hpp: the one symboliser of code addresses, over libbacktrace (GCC's): the frames of a
// return address with inline frames expanded (function, file, line where the object has debug
// information; else its symbol, or the library it lies in). Findings located through a
// wrapper's stack (call_stacks.hpp), the line of a call no bsp.h macro recorded, and a crashed
// process's backtrace (backtrace.hpp) all read the program's debug information through it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"

namespace bspcheck::rt {

// Appends the frames of the call whose return address this is, innermost (inlined) first. An
// address without line information gives one frame with the symbol's name, "?? in LIBRARY" for a
// local symbol of a stripped library, or nothing known.
void symbolise(std::uintptr_t return_address, std::vector<StackFrame>& out);

// The source file and line of the call whose return address is pc, where the program has debug
// information (false otherwise): the location of a call that no bsp.h macro recorded.
bool call_source(const void* pc, std::string& file, int& line);

// "SYMBOL in LIBRARY +0xOFFSET" for an address whose object has no debug information (empty when
// no loaded object contains it): enough for addr2line, or for the program's build with -g.
std::string describe_address(const void* pc);

}  // namespace bspcheck::rt
