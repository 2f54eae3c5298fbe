/* bspk_count_mismatch_ok.c: the correct twin of bspk_count_mismatch.c: announce exactly the messages the process receives.
 *
 * Each process stores its pid into its right neighbour's buffer; every receiver announces the one message it gets. */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs(), right = (me + 1) % p, left = (me + p - 1) % p;
  bspk_ptr buf = bspk_malloc("buf", me, 1, sizeof(int));
  bspk_ptr to_right = bspk_lookup("buf", right);
  bspk_ptr out = bspk_malloc("", 0, 1, sizeof(int));
  *(int *)bspk_elemP(out) = me;
  bspk_sync();
  bspk_copy(to_right, out, 1);
  bspk_expect(me == right ? 0 : 1); bspk_sync();
  if (*(int *)bspk_elemP(buf) != left) bsp_abort("wrong value\n");
  printf("bspk_count_mismatch_ok: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
