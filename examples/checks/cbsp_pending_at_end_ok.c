/* cbsp_pending_at_end_ok.c: the twin of cbsp_pending_at_end.c: a cBSP_nsync receives the message.
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
  cBSP_send((me + 1) % p, &from_left, &me, sizeof me, NULL);
  cBSP_nsync(1);
  printf("cbsp_pending_at_end_ok: pid %d\n", me);
  bsp_end();
  return 0;
}
