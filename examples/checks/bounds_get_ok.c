/* bounds_get_ok.c: the correct twin of bounds_get.c: the offset comes from the left
 * neighbour's block length. */
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
  bsp_get(left, block, (nlocal(left) - 1) * (int)sizeof(int), &last, sizeof last); /* FIX */
  bsp_sync();
  if (last != 10 * left + nlocal(left) - 1) bsp_abort("bounds_get_ok: pid %d got %d", s, last);
  printf("bounds_get_ok: pid %d last of left %d\n", s, last);
  bsp_pop_reg(block);
  bsp_sync();
  free(block);
  bsp_end();
  return 0;
}
