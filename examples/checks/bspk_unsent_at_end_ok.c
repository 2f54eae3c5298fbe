/* bspk_unsent_at_end_ok.c: the correct twin of bspk_unsent_at_end.c: the superstep of the sends
 * ends with bspk_sync (process 0 announcing the p messages it receives, its own included),
 * and process 0 receives them in the next superstep. */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs();
  bspk_ptr part = bspk_malloc("", 0, 1, sizeof(int));
  *(int *)bspk_elemP(part) = me * me;
  bspk_send(0, part, 1);
  bspk_expect(me == 0 ? p : 0);
  bspk_sync();
  if (me == 0) {
    int total = 0, n = 0;
    for (bspk_ptr m = bspk_recv(); !bspk_is_null(m); m = bspk_recv(), ++n) total += *(int *)bspk_elemP(m);
    if (n != p || total != (p - 1) * p * (2 * p - 1) / 6) bsp_abort("bspk_unsent_at_end_ok: %d messages, total %d\n", n, total);
    printf("bspk_unsent_at_end_ok: total %d\n", total);
  }
  bsp_end();
  return 0;
}
