// snapshot_interposers.cpp: the C library functions through which a run changes process state
// that is not memory, interposed (the executable binds to the runtime library before the C
// library, and the runtime library binds to its own definitions) so that a process snapshot
// (runtime/isolation/process_snapshot.hpp) knows what to set back: the disposition of a signal, the
// signal stack, the mappings made and removed. Each does what the C library's own function does.
// (pthread_create, after which a snapshot cannot be restored, is interposed in
// engine/core/foreign_contexts.cpp.)
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>

#include "runtime/isolation/process_snapshot.hpp"
#include "runtime/isolation/raw_syscall.hpp"
#include "runtime/base/interpose.hpp"

using bspcheck::rt::next_definition;

namespace {

using SignalFn = sighandler_t (*)(int, sighandler_t);

}  // namespace

extern "C" {

int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (act) bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_definition<int (*)(int, const struct sigaction*, struct sigaction*)>("sigaction");
  return real(sig, act, old);
}

sighandler_t signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_definition<SignalFn>("signal");
  return real(sig, handler);
}

sighandler_t sysv_signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_definition<SignalFn>("sysv_signal");
  return real(sig, handler);
}

sighandler_t bsd_signal(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_definition<SignalFn>("bsd_signal");
  return real(sig, handler);
}

sighandler_t sigset(int sig, sighandler_t handler) {
  bspcheck::rt::note_signal_disposition_changed(sig);
  static const auto real = next_definition<SignalFn>("sigset");
  return real(sig, handler);
}

int sigaltstack(const stack_t* ss, stack_t* old) {
  if (ss) bspcheck::rt::note_signal_stack_changed();
  static const auto real = next_definition<int (*)(const stack_t*, stack_t*)>("sigaltstack");
  return real(ss, old);
}

// The mmap family, as the system calls they are. Not in sanitizer builds, whose runtime intercepts
// these itself (and keeps its shadow memory right through them); snapshots are not taken there.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

namespace {

void* mapping_result(long r) {
  if (r < 0 && r > -4096) {
    errno = static_cast<int>(-r);
    return MAP_FAILED;
  }
  return reinterpret_cast<void*>(r);
}

int status_result(long r) {
  if (r < 0) {
    errno = static_cast<int>(-r);
    return -1;
  }
  return 0;
}

using bspcheck::rt::snapshot::raw_syscall;

}  // namespace

void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  void* r = mapping_result(
      raw_syscall(SYS_mmap, reinterpret_cast<long>(addr), static_cast<long>(length), prot, flags, fd, offset));
  if (r != MAP_FAILED) bspcheck::rt::note_mapped(r, length);
  return r;
}

void* mmap64(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return mmap(addr, length, prot, flags, fd, offset);
}

int munmap(void* addr, size_t length) {
  const int r = status_result(raw_syscall(SYS_munmap, reinterpret_cast<long>(addr), static_cast<long>(length), 0));
  if (r == 0) bspcheck::rt::note_unmapped(addr, length);
  return r;
}

int mprotect(void* addr, size_t length, int prot) {
  const int r = status_result(raw_syscall(SYS_mprotect, reinterpret_cast<long>(addr), static_cast<long>(length), prot));
  if (r == 0) bspcheck::rt::note_protection_changed(addr, length);
  return r;
}

void* mremap(void* old, size_t old_length, size_t new_length, int flags, ...) {
  long target = 0;
  if (flags & MREMAP_FIXED) {
    va_list ap;
    va_start(ap, flags);
    target = reinterpret_cast<long>(va_arg(ap, void*));
    va_end(ap);
  }
  void* r = mapping_result(raw_syscall(SYS_mremap, reinterpret_cast<long>(old), static_cast<long>(old_length),
                                       static_cast<long>(new_length), flags, target));
  if (r != MAP_FAILED) {
    if (!(flags & MREMAP_DONTUNMAP)) bspcheck::rt::note_unmapped(old, old_length);
    bspcheck::rt::note_mapped(r, new_length);
  }
  return r;
}

#endif  // no sanitizer

}  // extern "C"
