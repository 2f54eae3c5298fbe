/* cbsp_count_excess.c: a cBSP_nsync count larger than the messages that arrive.
 *
 * Each process sends one value to its right neighbour in a ring and so receives exactly one
 * message, but waits for two: on a real machine every process hangs in cBSP_nsync. bsp-check
 * finds the deadlock and lists each process's state (superstep, what it waits for, how many
 * messages arrived). Fix: count exactly the messages sent to the process in the superstep
 * (cbsp_count_excess_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int from_left;

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  cBSP_send((me + 1) % p, &from_left, &me, sizeof me, NULL);
  cBSP_nsync(2); /* BUG: cbsp-count-excess @ superstep 0, process 0 */
  printf("cbsp_count_excess: pid %d got %d\n", me, from_left);
  bsp_end();
  return 0;
}
