/* cbsp_dst_overlap.c: messages of one superstep with overlapping destinations.
 *
 * Every process but 0 reports its pid to process 0, all into the same variable: which value
 * process 0 finds there depends on the order the messages arrive in, which the paper leaves open
 * ("no guarantees ... of multiple sends to the same destination address"). Fix: one destination
 * per sender (cbsp_dst_overlap_ok.c), or a handler on a NULL destination that combines them. */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int slot[64];

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  if (p > 64) bsp_abort("at most 64 processes\n");
  if (me != 0) cBSP_send(0, &slot[0], &me, sizeof me, NULL); /* BUG: cbsp-dst-overlap @ superstep 0, process 1 */
  cBSP_nsync(me == 0 ? p - 1 : 0);
  if (me == 0) printf("cbsp_dst_overlap: %d reports\n", p - 1);
  bsp_end();
  return 0;
}
