// wrapped_put.hpp: bsp_put behind a thin wrapper in a header, as C++ programs write them. Its call
// site is in a header, so the runtime records each call's stack (runtime/executable/call_stacks.hpp):
// bench_comm's "through a header wrapper" row is what that costs next to a direct bsp_put.
#pragma once

#include "bsp.h"

inline __attribute__((noinline)) void wrapped_put(int pid, const void* src, void* dst, int offset, int nbytes) {
  bsp_put(pid, src, dst, offset, nbytes);
  asm volatile("" ::: "memory");  // a call, not a jump (as with any work after it): the wrapper's frame stays
}
