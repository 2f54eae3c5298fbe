/* The correct twin of the buggy programs: the same accesses, each after the sync that makes it
   legal. The `edge` destinations end inside an 8-byte granule shared with live bytes (watched by
   a hardware watchpoint): their neighbours are used during the superstep, legally, while the
   runtime copies and hashes the globals around them. */
#include <stdio.h>
#include "bsp.h"
int edge[3];
int main(void) {
  bsp_begin(2);
  int x = 40 + bsp_pid(), y = 0, z = 0, other = (bsp_pid() + 1) % bsp_nprocs();
  int local_edge[3] = {0, 0, 0};
  bsp_push_reg(&x, sizeof x);
  bsp_push_reg(edge, sizeof edge);
  bsp_sync();
  bsp_hpget(other, &x, 0, &y, sizeof y);
  bsp_get(other, &x, 0, &z, sizeof z);
  bsp_hpget(other, &x, 0, &edge[0], sizeof(int));
  bsp_get(other, &x, 0, &local_edge[0], sizeof(int));
  edge[1] = local_edge[1] = bsp_pid();
  bsp_hpput(other, &x, edge, 2 * (int)sizeof(int), sizeof(int));
  double v = 1.5 * bsp_pid();
  bsp_send(other, NULL, &v, sizeof v);
  bsp_sync();
  void *tag, *payload;
  double got = -1;
  if (bsp_hpmove(&tag, &payload) >= 0) got = *(double *)payload;
  printf("%d: %d %d %g edges %d %d %d %d\n", bsp_pid(), y, z, got, edge[0], edge[1], edge[2], local_edge[0]);
  bsp_pop_reg(edge);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
