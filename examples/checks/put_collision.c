/* put_collision.c: two puts write different data to the same bytes in one superstep.
 *
 * A gather of partial sums to process 0: every process puts its partial sum into process 0's
 * array, but at offset 0 instead of at its own slot s. All of them land on results[0]; which
 * one survives is not defined (BSPlib 3.2: the order in which puts to overlapping areas take
 * effect is unspecified), and results[1..p-1] stay unset. bsp-check warns (put-collision) and
 * names the call sites; it picks the winner from the seed.
 * Fix: each process writes its own slot: see put_collision_ok.c. */
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
  bsp_put(0, &partial, results, 0, sizeof partial); /* BUG: put-collision @ superstep 1, process any */
  bsp_sync();
  if (s == 0) {
    int total = 0;
    for (int t = 0; t < p; t++) total += results[t];
    /* The total depends on which put landed last. Printing it would make the output differ
     * between seeds, which `bsp-check run` reports as schedule-divergence on top of the
     * put-collision warning; this example shows the warning alone. */
    (void)total;
    printf("put_collision: pid 0 summed its results\n");
  }
  bsp_pop_reg(results);
  bsp_sync();
  free(results);
  bsp_end();
  return 0;
}
