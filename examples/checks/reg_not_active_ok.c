/* reg_not_active_ok.c: the correct twin of reg_not_active.c: a bsp_sync makes the registration
 * take effect before the put uses it. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int x = -1, v = s;
  bsp_push_reg(&x, sizeof x);
  bsp_sync(); /* FIX */
  bsp_put((s + 1) % p, &v, &x, 0, sizeof v);
  bsp_sync();
  printf("reg_not_active_ok: pid %d x %d\n", s, x);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
