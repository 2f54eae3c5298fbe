/* reg_leak_ok.c: the correct twin of reg_leak.c: the helper pops its registration before it
 * returns (the pop takes effect at the next sync, or at bsp_end). */
#include <stdio.h>

#include "bsp.h"

static int neighbour_sum(int x) {
  int p = bsp_nprocs(), s = bsp_pid();
  int scratch[2] = {0, 0};
  bsp_push_reg(scratch, sizeof scratch);
  bsp_sync();
  bsp_put((s + 1) % p, &x, scratch, 0, sizeof x);
  bsp_put((s + p - 1) % p, &x, scratch, sizeof x, sizeof x);
  bsp_sync();
  bsp_pop_reg(scratch); /* FIX */
  return scratch[0] + scratch[1];
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int r = neighbour_sum(s);
  printf("reg_leak_ok: pid %d neighbour sum %d\n", s, r);
  bsp_sync();
  bsp_end();
  return 0;
}
