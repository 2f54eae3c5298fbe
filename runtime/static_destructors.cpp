// static_destructors.cpp: destructors of the executable's static objects, per process. The C++
// runtime registers them with __cxa_atexit when an object is constructed (a global at start-up,
// a static local at its first use); in a separate OS process they would run at that process's
// exit. Registrations made while process k >= 1 runs belong to process k and run when it ends
// (PrivateGlobals::finish_process); the others go to the C library as usual.
#include <dlfcn.h>

#include "runtime/private_globals.hpp"

extern "C" int __cxa_atexit(void (*fn)(void*), void* arg, void* dso) {
  using Register = int (*)(void (*)(void*), void*, void*);
  if (auto* g = bspcheck::rt::PrivateGlobals::active(); g && g->take_exit_handler(fn, arg, dso)) return 0;
  static const auto next = reinterpret_cast<Register>(dlsym(RTLD_NEXT, "__cxa_atexit"));
  return next(fn, arg, dso);
}
