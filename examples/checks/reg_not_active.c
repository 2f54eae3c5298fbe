/* reg_not_active.c: a put uses an area registered in the same superstep.
 *
 * bsp_push_reg takes effect at the end of the superstep (BSPlib 3.1.2 (1)): the area can be the
 * target of DRMA only from the next superstep on. Here each process registers x and at once
 * puts into its right neighbour's x.
 * Fix: bsp_sync between the registration and the first put: see reg_not_active_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int x = -1, v = s;
  bsp_push_reg(&x, sizeof x);
  bsp_put((s + 1) % p, &v, &x, 0, sizeof v); /* BUG: reg-not-active @ superstep 0, process 0 */
  bsp_sync();
  printf("reg_not_active: pid %d x %d\n", s, x);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
