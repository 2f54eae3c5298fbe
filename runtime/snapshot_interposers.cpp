// snapshot_interposers.cpp: the C library functions through which a run changes process state
// that is not memory, interposed (the executable binds to the runtime library before the C
// library) so that a process snapshot (runtime/process_snapshot.hpp) knows what to set back: the
// disposition of a signal, and whether the process is still single-threaded. Each forwards to
// the C library's own function unchanged.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

#include "runtime/process_snapshot.hpp"

namespace {

template <class F>
F next_fn(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

using SignalFn = sighandler_t (*)(int, sighandler_t);

}  // namespace

extern "C" {

int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (act) bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_fn<int (*)(int, const struct sigaction*, struct sigaction*)>("sigaction");
  return real(sig, act, old);
}

sighandler_t signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_fn<SignalFn>("signal");
  return real(sig, handler);
}

sighandler_t sysv_signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_fn<SignalFn>("sysv_signal");
  return real(sig, handler);
}

sighandler_t bsd_signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_fn<SignalFn>("bsd_signal");
  return real(sig, handler);
}

sighandler_t sigset(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_fn<SignalFn>("sigset");
  return real(sig, handler);
}

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  bspcheck::rt::note_thread_started();
  static const auto real =
      next_fn<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)>("pthread_create");
  return real(thread, attr, start, arg);
}

}  // extern "C"
