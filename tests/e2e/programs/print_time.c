/* print_time.c: a correct BSPlib program that prints its elapsed time, as almost every
 * BSPedupack-style program does. Under bsp-check's virtual time its output is the same under
 * every seed, so `bsp-check run --seeds N` must not report schedule-divergence. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  int *x = calloc((size_t)p, sizeof *x);
  bsp_push_reg(x, p * (int)sizeof *x);
  bsp_sync();
  const double t0 = bsp_time();
  for (int t = 0; t < p; ++t) bsp_put(t, &s, x, s * (int)sizeof *x, sizeof s);
  bsp_sync();
  const double t1 = bsp_time();
  int sum = 0;
  for (int t = 0; t < p; ++t) sum += x[t];
  bsp_pop_reg(x);
  bsp_sync();
  const double t2 = bsp_time();
  printf("print_time: pid %d sum %d: exchange took %.9f s, total %.9f s\n", s, sum, t1 - t0, t2 - t0);
  free(x);
  bsp_end();
  return 0;
}
