/* bounds_put_ok.c: the correct twin of bounds_put.c: the put is sized by the target's block. */
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

  int n = nlocal(s) < nlocal(left) ? nlocal(s) : nlocal(left); /* FIX */
  bsp_put(left, copy, block, 0, n * (int)sizeof(int));
  bsp_sync();
  printf("bounds_put_ok: pid %d block[0] %d\n", s, block[0]);
  bsp_pop_reg(block);
  bsp_sync();
  free(block);
  free(copy);
  bsp_end();
  return 0;
}
