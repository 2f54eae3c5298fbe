/* bounds_put.c: a put writes past the end of the target's registered area.
 *
 * Process s holds a block of s + 1 ints and registers exactly that much, so the registered size
 * differs from process to process. Each process copies its whole block into its left
 * neighbour's block, sizing the put by its OWN block: process s writes s + 1 ints into a block
 * of s ints. The bound that counts is the size registered by the TARGET (BSPlib 3.2.4 (3)).
 * Fix: copy min(own size, target's size): see bounds_put_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int nlocal(int s) { return s + 1; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p;
  int *block = malloc((size_t)nlocal(s) * sizeof(int));
  int *copy = malloc((size_t)nlocal(s) * sizeof(int));
  for (int i = 0; i < nlocal(s); i++) block[i] = copy[i] = 10 * s + i;
  bsp_push_reg(block, nlocal(s) * (int)sizeof(int));
  bsp_sync();

  bsp_put(left, copy, block, 0, nlocal(s) * (int)sizeof(int)); /* BUG: bounds-put @ superstep 1, process 1 */
  bsp_sync();
  printf("bounds_put: pid %d block[0] %d\n", s, block[0]);
  bsp_pop_reg(block);
  bsp_sync();
  free(block);
  free(copy);
  bsp_end();
  return 0;
}
