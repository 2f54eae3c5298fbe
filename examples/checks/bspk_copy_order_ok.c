/* bspk_copy_order_ok.c: the correct twin of bspk_copy_order.c: the local copy of "in" is made in
 * the superstep after the store into it, so it reads the stored value on every schedule. */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs();
  bspk_ptr in = bspk_malloc("in", me, 1, sizeof(int));
  bspk_ptr seen = bspk_malloc("", 0, 1, sizeof(int));
  bspk_ptr out = bspk_malloc("", 0, 1, sizeof(int));
  bspk_ptr right = bspk_lookup("in", (me + 1) % p);
  *(int *)bspk_elemP(out) = me;
  bspk_sync();
  bspk_copy(right, out, 1);
  bspk_sync();
  bspk_copy(seen, in, 1);
  bspk_sync();
  if (*(int *)bspk_elemP(seen) != (me + p - 1) % p) bsp_abort("bspk_copy_order_ok: wrong value\n");
  printf("bspk_copy_order_ok: pid %d saw %d\n", me, *(int *)bspk_elemP(seen));
  bsp_end();
  return 0;
}
