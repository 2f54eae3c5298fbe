/* level1_hygiene_ok.c: the correct twin of level1_hygiene.c: bcast_int restores the tag size it
 * found (bsp_set_tagsize returned it), so the state after the collective is the state before. */
#include <stdio.h>

#include "bsp.h"
#include "bspcheck/hygiene.h"

static int bcast_int(int x, int root) {
  int p = bsp_nprocs();
  int tagsize = sizeof(int);
  bsp_set_tagsize(&tagsize); /* tagsize now holds the caller's tag size */
  bsp_sync();
  if (bsp_pid() == root)
    for (int t = 0; t < p; t++) bsp_send(t, &root, &x, sizeof x);
  bsp_sync();
  int tag = -1, status = -1;
  bsp_get_tag(&status, &tag);
  bsp_move(&x, sizeof x);
  bsp_set_tagsize(&tagsize); /* FIX: restore (takes effect at the next sync) */
  return x;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  bspcheck_level1_enter("bcast_int");
  int x = bcast_int(s == 0 ? 42 : -1, 0);
  bspcheck_level1_exit("bcast_int");
  if (x != 42) bsp_abort("level1_hygiene_ok: pid %d x %d", s, x);
  printf("level1_hygiene_ok: pid %d x %d\n", s, x);
  bsp_sync();
  bsp_end();
  return 0;
}
