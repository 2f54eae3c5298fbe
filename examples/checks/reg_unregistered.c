/* reg_unregistered.c: puts into areas that are not registered on the target.
 *
 * Every process registers an array `all` of p ints; the workers 1..p-1 also register an `inbox`,
 * for which process 0, which never receives into it, registers NULL. Three mistakes, one per
 * superstep:
 *   1. the put names &all, the address of the pointer variable, instead of the array it
 *      points to: that address was never registered;
 *   2. the workers pass a token around the ring (s + 1) % p, which includes process 0: the last
 *      worker's put reaches process 0, which registered NULL in the inbox slot;
 *   3. a put into `all` after its registration was popped (the pop took effect at the sync).
 * Fix: see reg_unregistered_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *all = calloc((size_t)p, sizeof(int));
  int inbox = -1;
  bsp_push_reg(all, p * (int)sizeof(int));
  bsp_push_reg(s == 0 ? NULL : &inbox, sizeof inbox);
  bsp_sync();

  int v = 100 + s;
  bsp_put(0, &v, &all, s * (int)sizeof(int), sizeof v); /* BUG: reg-unregistered @ superstep 1, process 0 */
  bsp_sync();

  if (s > 0) bsp_put((s + 1) % p, &v, &inbox, 0, sizeof v); /* BUG: reg-unregistered @ superstep 2, process last */
  bsp_sync();

  bsp_pop_reg(all);
  bsp_pop_reg(s == 0 ? NULL : &inbox);
  bsp_sync();
  bsp_put(0, &v, all, s * (int)sizeof(int), sizeof v); /* BUG: reg-unregistered @ superstep 4, process 0 */
  bsp_sync();
  printf("reg_unregistered: pid %d all[0] %d inbox %d\n", s, all[0], inbox);
  free(all);
  bsp_end();
  return 0;
}
