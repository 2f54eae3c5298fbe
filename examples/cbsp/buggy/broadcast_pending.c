/* broadcast_pending.c: the buggy twin of broadcast.c: after the check, process 0 sends every
 * process an acknowledgement that no sync receives: it is still pending when the receivers reach
 * bsp_end (cbsp-pending-at-end).
 *
 * broadcast.c: a broadcast built on cBSP_send and handlers (the paper, section 4.3: "broadcast
 * and reduction functions can be built in a straightforward manner").
 *
 * Process 0 sends the value to the roots of a binary tree (processes 1 and 2). The handler that
 * runs on each receiver forwards the value to the receiver's children (2i+1, 2i+2) during the
 * receiver's cBSP_nsync, so the whole broadcast is one counting superstep: every process but 0
 * receives exactly one message, and no process waits for any other than its parent. A second,
 * global superstep (cBSP_gsync) then checks the result with a reduction to process 0. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#include "cbsp.h"

static double value;     /* each process's own copy: the broadcast's destination */
static double sum[64];   /* process 0: one slot per process for the check */

static void forward(int src, void *dest, int nbytes) {
  (void)src;
  (void)nbytes;
  int me = bsp_pid(), p = bsp_nprocs();
  for (int child = 2 * me + 1; child <= 2 * me + 2 && child < p; ++child)
    cBSP_send(child, dest, dest, sizeof(double), forward);
}

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  if (p > 64) bsp_abort("at most 64 processes\n");
  value = 0.0;
  if (me == 0) {
    value = 3.25;
    for (int child = 1; child <= 2 && child < p; ++child) cBSP_send(child, &value, &value, sizeof value, forward);
  }
  cBSP_nsync(me == 0 ? 0 : 1); /* one message, from the parent */

  cBSP_send(0, &sum[me], &value, sizeof value, NULL);
  cBSP_gsync();
  if (me == 0) {
    double total = 0;
    for (int q = 0; q < p; ++q) total += sum[q];
    printf("broadcast: %d processes got %.2f (sum %.2f)\n", p, value, total);
    if (total != 3.25 * p) bsp_abort("broadcast: wrong sum %.2f\n", total);
    for (int q = 1; q < p; ++q) cBSP_send(q, &value, &value, sizeof value, NULL); /* BUG: cbsp-pending-at-end @ superstep 2, process 0 */
  }
  bsp_end();
  return 0;
}
