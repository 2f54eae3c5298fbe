/* put_collision_ok.c: the correct twin of put_collision.c: process s writes results[s]. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *results = calloc((size_t)p, sizeof(int));
  bsp_push_reg(results, p * (int)sizeof(int));
  bsp_sync();

  int partial = 0;
  for (int i = 0; i <= s; i++) partial += 10 * s + i;
  bsp_put(0, &partial, results, s * (int)sizeof(int), sizeof partial); /* FIX */
  bsp_sync();
  if (s == 0) {
    int total = 0, expect = 0;
    for (int t = 0; t < p; t++) total += results[t];
    for (int t = 0; t < p; t++)
      for (int i = 0; i <= t; i++) expect += 10 * t + i;
    if (total != expect) bsp_abort("put_collision_ok: total %d, expected %d", total, expect);
    printf("put_collision_ok: pid 0 total %d\n", total);
  }
  bsp_pop_reg(results);
  bsp_sync();
  free(results);
  bsp_end();
  return 0;
}
