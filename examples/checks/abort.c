/* abort.c: the program stops itself with bsp_abort.
 *
 * bsp_abort prints its message and halts the whole program (BSPlib 2.3); bsp-check reports it
 * as the finding `abort`, with the calling process and line. Here the program distributes
 * N = 10 elements in equal blocks and gives up when p does not divide N, which happens for
 * p = 3, 4, 6, 7, 8.
 * Fix: a block distribution that works for every p (blocks of ceil(N/p), the last ones shorter):
 * see abort_ok.c. */
#include <stdio.h>

#include "bsp.h"

enum { N = 10 };

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  if (N % p != 0) bsp_abort("abort: N = %d is not a multiple of p = %d", N, p); /* BUG: abort @ superstep 0, process any */
  int lo = s * (N / p), hi = lo + N / p;
  printf("abort: pid %d owns %d..%d\n", s, lo, hi);
  bsp_end();
  return 0;
}
