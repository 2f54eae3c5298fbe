/* abort_ok.c: the correct twin of abort.c: blocks of ceil(N/p), clamped at N, work for every p. */
#include <stdio.h>

#include "bsp.h"

enum { N = 10 };

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int b = (N + p - 1) / p; /* FIX */
  int lo = s * b, hi = lo + b;
  if (lo > N) lo = N;
  if (hi > N) hi = N;
  printf("abort_ok: pid %d owns %d..%d\n", s, lo, hi);
  bsp_end();
  return 0;
}
