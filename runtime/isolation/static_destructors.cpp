// static_destructors.cpp: destructors of the executable's static objects, per process. The C++
// runtime registers them with __cxa_atexit when an object is constructed (a global at start-up,
// a static local at its first use); in a separate OS process they would run at that process's
// exit. Registrations made while process k >= 1 runs belong to process k and run when it ends
// (PrivateGlobals::finish_process); the others go to the C library as usual. Thread-local objects
// likewise: the C library keeps one list per thread, and every process runs on the one thread.
#include <dlfcn.h>

#include "runtime/isolation/private_globals.hpp"
#include "runtime/base/interpose.hpp"

using bspcheck::rt::next_definition;

extern "C" int __cxa_atexit(void (*fn)(void*), void* arg, void* dso) {
  using Register = int (*)(void (*)(void*), void*, void*);
  if (auto* g = bspcheck::rt::PrivateGlobals::active(); g && g->take_exit_handler(fn, arg, dso)) return 0;
  static const auto next = next_definition<Register>("__cxa_atexit");
  return next(fn, arg, dso);
}

// The C++ runtime's __cxa_thread_atexit (and a statically linked libstdc++'s) calls this one of
// the C library's.
extern "C" int __cxa_thread_atexit_impl(void (*fn)(void*), void* obj, void* dso) {
  using Register = int (*)(void (*)(void*), void*, void*);
  if (auto* g = bspcheck::rt::PrivateGlobals::running(); g && g->take_thread_exit_handler(fn, obj, dso)) return 0;
  static const auto next = next_definition<Register>("__cxa_thread_atexit_impl");
  return next(fn, obj, dso);
}
