// interpose.hpp: the one way to reach the C library's own definition of a function the runtime
// interposes.
//
// The runtime library defines functions that the C and C++ libraries define too (fopen, rand,
// clock_gettime, sigaction, pthread_create, __cxa_throw, exit, ...): the program's calls bind to
// the runtime's, which comes before those libraries in the program's link order. Each wrapper
// reaches the definition it wraps through next_definition, as compiler-rt's interception layer
// does with REAL(name). Look it up once and keep it (a function-local static): dlsym takes a lock
// and may allocate, which some wrappers are called where they must not.
#pragma once

#include <dlfcn.h>

namespace bspcheck::rt {

// The definition of `name` that comes after this library's in the lookup order (RTLD_NEXT is
// relative to the object whose code calls dlsym: this header is only compiled into the runtime).
template <class F>
F next_definition(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace bspcheck::rt
