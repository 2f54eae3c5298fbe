/* reg_unregistered_ok.c: the correct twin of reg_unregistered.c: the put names the registered
 * array, the token ring runs over the workers 1..p-1 only, and the last put into `all` is issued
 * before the pop takes effect (a pop takes effect at the sync, so the area is usable until then). */
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
  bsp_put(0, &v, all, s * (int)sizeof(int), sizeof v); /* FIX */
  bsp_sync();

  if (s > 0) bsp_put(s % (p - 1) + 1, &v, &inbox, 0, sizeof v); /* FIX: workers only */
  bsp_sync();

  v = 200 + s;
  bsp_put(0, &v, all, s * (int)sizeof(int), sizeof v); /* FIX: before the pop takes effect */
  bsp_pop_reg(all);
  bsp_pop_reg(s == 0 ? NULL : &inbox);
  bsp_sync();
  if (s == 0)
    for (int t = 0; t < p; t++)
      if (all[t] != 200 + t) bsp_abort("reg_unregistered_ok: all[%d] = %d", t, all[t]);
  printf("reg_unregistered_ok: pid %d all[0] %d inbox %d\n", s, all[0], inbox);
  free(all);
  bsp_end();
  return 0;
}
