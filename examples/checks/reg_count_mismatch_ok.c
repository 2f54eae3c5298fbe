/* reg_count_mismatch_ok.c: the correct twin of reg_count_mismatch.c. Every process makes the
 * same registrations in the same order; processes that do not need the scratch area register
 * NULL in its slot (a NULL registration registers nothing on that process). */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int value = s, scratch[4] = {0};
  bsp_push_reg(&value, sizeof value);
  bsp_push_reg(s == 0 ? scratch : NULL, s == 0 ? (int)sizeof scratch : 0); /* FIX */
  bsp_sync();

  int v = s;
  bsp_put((s + 1) % p, &v, &value, 0, sizeof v);
  bsp_sync();
  printf("reg_count_mismatch_ok: pid %d value %d\n", s, value);
  bsp_pop_reg(&value);
  bsp_pop_reg(s == 0 ? scratch : NULL);
  bsp_end();
  return 0;
}
