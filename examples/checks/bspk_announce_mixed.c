/* bspk_announce_mixed.c: processes of one superstep use different announcement calls.
 *
 * Process 0 ends the superstep with a plain barrier while the others announce their messages with bspk_expect: the paper requires one kind of call per superstep.
 * Fix: announce the same way on every process (bspk_announce_mixed_ok.c). */
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
  if (me != 0) bspk_expect(me == right ? 0 : 1);
  bspk_sync(); /* BUG: bspk-announce-mixed @ superstep 1, process any */
  printf("bspk_announce_mixed: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
