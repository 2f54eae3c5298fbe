/* The correct twin of the three: the same accesses, each after the sync that makes it legal. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(2);
  int x = 40 + bsp_pid(), y = 0, z = 0, other = (bsp_pid() + 1) % bsp_nprocs();
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  bsp_hpget(other, &x, 0, &y, sizeof y);
  bsp_get(other, &x, 0, &z, sizeof z);
  double v = 1.5 * bsp_pid();
  bsp_send(other, NULL, &v, sizeof v);
  bsp_sync();
  void *tag, *payload;
  double got = -1;
  if (bsp_hpmove(&tag, &payload) >= 0) got = *(double *)payload;
  printf("%d: %d %d %g\n", bsp_pid(), y, z, got);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
