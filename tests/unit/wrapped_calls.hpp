// wrapped_calls.hpp: a thin wrapper around bsp_put in a header, for test_call_stacks.cpp: its
// bsp_put's site is this header whichever line of the test calls it.
#pragma once

#include <bsp.h>

// Its frame stays on the stack: the empty asm after the call keeps the compiler from making the
// call a jump (as any work after it would), so that every calling line shares this call site.
__attribute__((noinline)) inline void wrapped_put(int pid, const void* src, void* dst, int offset, int nbytes) {
  bsp_put(pid, src, dst, offset, nbytes);
  asm volatile("" ::: "memory");
}
