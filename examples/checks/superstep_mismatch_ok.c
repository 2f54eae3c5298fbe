/* superstep_mismatch_ok.c: the correct twin of superstep_mismatch.c: the processes first agree
 * on the number of rounds (the maximum of the local counts, gathered with puts), then every
 * process runs that many supersteps, idling when its own work is done. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int work = s + 1, done = 0;
  int *counts = calloc((size_t)p, sizeof(int));
  bsp_push_reg(counts, p * (int)sizeof(int));
  bsp_sync();
  for (int t = 0; t < p; t++) bsp_put(t, &work, counts, s * (int)sizeof(int), sizeof work);
  bsp_sync();
  int rounds = 0; /* FIX: the same on every process */
  for (int t = 0; t < p; t++)
    if (counts[t] > rounds) rounds = counts[t];
  for (int r = 0; r < rounds; r++) {
    if (done < work) done++;
    bsp_sync();
  }
  printf("superstep_mismatch_ok: pid %d rounds %d of %d\n", s, done, rounds);
  bsp_pop_reg(counts);
  bsp_sync();
  free(counts);
  bsp_end();
  return 0;
}
