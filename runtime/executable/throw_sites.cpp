// throw_sites.cpp: where an exception was thrown. A C++ exception that no code of the process
// catches is a crash of that process, and by the time the runtime catches it at the top of the
// process its stack is unwound. So every throw notes its stack first (call_stacks.cpp), and the
// crash finding names the program's line that threw (or that called the library function that
// did, e.g. std::vector::at).
//
// The interposer is found before the C++ library's own: the runtime is linked into the program
// ahead of libstdc++. Where it is not, throws are simply not noted (the finding names the
// process's last BSPlib call instead).
#include <dlfcn.h>

#include <cstdlib>

#include "runtime/executable/call_stacks.hpp"
#include "runtime/base/interpose.hpp"

using bspcheck::rt::next_definition;

extern "C" [[noreturn]] void __cxa_throw(void* object, void* type, void (*destroy)(void*)) {
  using Throw = void (*)(void*, void*, void (*)(void*));
  bspcheck::rt::note_throw(object, type);
  static const auto next = next_definition<Throw>("__cxa_throw");
  if (!next) std::abort();  // no C++ library after the runtime: cannot happen where throws are compiled
  next(object, type, destroy);
  std::abort();  // (the library's __cxa_throw does not return)
}
