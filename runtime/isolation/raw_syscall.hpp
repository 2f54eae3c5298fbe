// raw_syscall.hpp: system calls and byte copies without the C library, for a process snapshot
// (process_snapshot.hpp).
//
// Why: restore() runs while the C library's memory is being copied back under it: it must not
// depend on that memory (errno, a lazily bound PLT slot), so it makes its system calls itself.
// Inline, as they were in the one file the snapshot was: the copies are the restore's hot loops.
#pragma once

#include <cstddef>

#pragma GCC visibility push(hidden)
namespace bspcheck::rt::snapshot {

inline long raw_syscall(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
  register long r10 asm("r10") = d;
  register long r8 asm("r8") = e;
  register long r9 asm("r9") = f;
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
}

inline void copy_bytes(void* to, const void* from, std::size_t n) {
  asm volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}

inline void zero_bytes(void* to, std::size_t n) { asm volatile("rep stosb" : "+D"(to), "+c"(n) : "a"(0) : "memory"); }

}  // namespace bspcheck::rt::snapshot
#pragma GCC visibility pop
