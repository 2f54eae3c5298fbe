/* The correct twin of hp_put_on_hpget_source.c: process 2 reads `shared` in the superstep after
 * the one in which process 0's bsp_hpput writes it, so it gets 100 on every schedule. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  int shared = 7, v = 100 + s, got = -1;
  bsp_push_reg(&shared, sizeof shared);
  bsp_sync();
  if (p >= 3 && s == 0) bsp_hpput(1, &v, &shared, 0, sizeof v);
  bsp_sync();
  if (p >= 3 && s == 2) bsp_hpget(1, &shared, 0, &got, sizeof got);
  bsp_sync();
  printf("process %d: shared %d got %d\n", s, shared, got);
  bsp_pop_reg(&shared);
  bsp_sync();
  bsp_end();
  return 0;
}
