/* bounds_get.c: a get reads past the end of the source's registered area.
 *
 * Process s holds a block of s + 1 ints and registers exactly that much. Each process fetches
 * the LAST element of its left neighbour's block, but computes the offset from its OWN block
 * length: process s reads int number s of a block of s ints. The bound that counts is the size
 * registered by the process read from (BSPlib 3.3.3 (3)).
 * Fix: use the neighbour's length: see bounds_get_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int nlocal(int s) { return s + 1; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p;
  int *block = malloc((size_t)nlocal(s) * sizeof(int));
  for (int i = 0; i < nlocal(s); i++) block[i] = 10 * s + i;
  bsp_push_reg(block, nlocal(s) * (int)sizeof(int));
  bsp_sync();

  int last = -1;
  bsp_get(left, block, (nlocal(s) - 1) * (int)sizeof(int), &last, sizeof last); /* BUG: bounds-get @ superstep 1, process 1 */
  bsp_sync();
  printf("bounds_get: pid %d last of left %d\n", s, last);
  bsp_pop_reg(block);
  bsp_sync();
  free(block);
  bsp_end();
  return 0;
}
