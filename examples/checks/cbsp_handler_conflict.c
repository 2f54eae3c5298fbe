/* cbsp_handler_conflict.c: a handler that writes memory another message of the same sync writes.
 *
 * Each process sends its right neighbour two messages: a count into `count`, whose handler also
 * resets `total` to zero, and a value into `total`. Whether `total` ends as the value or as zero
 * depends on whether the handler runs before or after the other message is written, which the
 * paper leaves open. Fix: let the handler write memory no message of the sync writes
 * (cbsp_handler_conflict_ok.c resets `scratch`). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int count, total, scratch;

static void on_count(int src, void *dest, int nbytes) {
  (void)src;
  (void)dest;
  (void)nbytes;
  total = 0;
  scratch = 0;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int right = (me + 1) % p, one = 1, value = 40 + me;
  cBSP_send(right, &count, &one, sizeof one, on_count); /* BUG: cbsp-handler-conflict @ superstep 0, process 0 */
  cBSP_send(right, &total, &value, sizeof value, NULL);
  cBSP_nsync(2);
  printf("cbsp_handler_conflict: pid %d\n", me);
  bsp_end();
  return 0;
}
