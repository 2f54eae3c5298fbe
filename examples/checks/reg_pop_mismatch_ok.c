/* reg_pop_mismatch_ok.c: the correct twin of reg_pop_mismatch.c: every process pops the same
 * slots in the same order (here not the stack order, which BSPlib allows). */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int a = 0, b = 0;
  bsp_push_reg(&a, sizeof a);
  bsp_push_reg(&b, sizeof b);
  bsp_sync();

  int va = s, vb = 10 * s;
  bsp_put((s + 1) % p, &va, &a, 0, sizeof va);
  bsp_put((s + 1) % p, &vb, &b, 0, sizeof vb);
  bsp_sync();
  printf("reg_pop_mismatch_ok: pid %d a %d b %d\n", s, a, b);
  bsp_pop_reg(&a); /* FIX */
  bsp_pop_reg(&b); /* FIX */
  bsp_sync();
  bsp_end();
  return 0;
}
