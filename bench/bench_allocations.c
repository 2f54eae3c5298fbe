/* bench_allocations.c: malloc and free under the runtime, which forwards them to the C library's
 * allocator (runtime/isolation/heap_owners.cpp) and, in a program that uses cBSP, records which process
 * owns each block. Each process allocates and frees N blocks of 8 to 512 bytes, 64 alive at a
 * time. Built twice: bench_allocations (no cBSP: the forwarding alone) and
 * bench_allocations_cbsp (imports cBSP_send: every block recorded). Timed from outside:
 *
 *   BSPCHECK_OPTIONS=procs=1 build/bench/bench_allocations 10000000
 *   BSPCHECK_OPTIONS=procs=1 build/bench/bench_allocations_cbsp 10000000
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#ifdef BENCH_CBSP
#include "cbsp.h"
#endif

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  bsp_begin(bsp_nprocs());
#ifdef BENCH_CBSP
  cBSP_initialize();
  if (bsp_nprocs() < 0) cBSP_send(0, NULL, NULL, 0, NULL); /* never: the import turns recording on */
#endif
  void *live[64] = {0};
  unsigned long state = 12345u + (unsigned long)bsp_pid(), sum = 0;
  for (long i = 0; i < n; ++i) {
    state = state * 6364136223846793005ul + 1442695040888963407ul;
    int k = (int)(state >> 58);
    free(live[k]);
    live[k] = malloc(8 + (state >> 20) % 505);
    sum += (unsigned long)((char *)live[k])[0] & 0; /* keeps the allocation */
  }
  for (int k = 0; k < 64; ++k) free(live[k]);
  if (bsp_pid() == 0) printf("bench_allocations: %ld blocks per process%s\n", n, sum ? "!" : "");
  bsp_end();
  return 0;
}
