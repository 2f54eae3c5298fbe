/* bspk_unsent_at_end.c: a BSPk send after the last bspk_sync.
 *
 * Every process sends its partial result to process 0 and goes straight to bsp_end. A send takes
 * effect at the sender's next bspk_sync (the paper, section 3): without one the message is never
 * sent, and process 0 never sees the results. Fix: end the superstep with bspk_sync, process 0
 * announcing the p messages it receives (its own included) (bspk_unsent_at_end_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid();
  bspk_ptr part = bspk_malloc("", 0, 1, sizeof(int));
  *(int *)bspk_elemP(part) = me * me;
  bspk_send(0, part, 1); /* BUG: bspk-unsent-at-end @ superstep 0, process 0 */
  printf("bspk_unsent_at_end: pid %d sent %d\n", me, me * me);
  bsp_end();
  return 0;
}
