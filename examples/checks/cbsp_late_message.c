/* cbsp_late_message.c: a cBSP_nsync count smaller than the messages sent in the superstep.
 *
 * Each process sends its left neighbour two values (its pid and its pid squared), but every
 * receiver counts only one message: it may leave the superstep with one of them not yet written,
 * and on a real machine that message lands in a later superstep while the receiver computes on its
 * destination. bsp-check reports sender, receiver and both supersteps. Fix: count both messages
 * (cbsp_late_message_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int got[2];

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int left = (me + p - 1) % p, sq = me * me;
  cBSP_send(left, &got[0], &me, sizeof me, NULL);
  cBSP_send(left, &got[1], &sq, sizeof sq, NULL);
  cBSP_nsync(1); /* BUG: cbsp-late-message @ superstep 0, process 0 */
  int sum = got[0] + got[1];
  cBSP_gsync();
  printf("cbsp_late_message: pid %d\n", me);
  (void)sum;
  bsp_end();
  return 0;
}
