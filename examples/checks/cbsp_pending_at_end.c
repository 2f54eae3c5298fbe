/* cbsp_pending_at_end.c: cBSP messages still in flight at bsp_end.
 *
 * Each process sends a value to its right neighbour and goes straight to bsp_end: no cBSP_nsync or
 * cBSP_gsync ever receives the messages, so they are never written. Fix: end the exchange with a
 * sync that receives them (cbsp_pending_at_end_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int from_left;

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  cBSP_send((me + 1) % p, &from_left, &me, sizeof me, NULL); /* BUG: cbsp-pending-at-end @ superstep 0, process 0 */
  printf("cbsp_pending_at_end: pid %d\n", me);
  bsp_end();
  return 0;
}
