/* cbsp_sync_mismatch.c: cBSP_nsync and cBSP_gsync mixed so that the processes disagree on the
 * superstep.
 *
 * Process 0 ends an extra (empty) counting superstep before the global one: it calls cBSP_gsync in
 * superstep 2 while the others call it in superstep 1, so messages the others send in their
 * superstep 1 belong to process 0's superstep 1 that it has already left. Fix: every process takes
 * the same number of syncs between two cBSP_gsync calls (cbsp_sync_mismatch_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid();
  cBSP_nsync(0);
  if (me == 0) cBSP_nsync(0);
  cBSP_gsync(); /* BUG: cbsp-sync-mismatch @ superstep 1, process 0 */
  printf("cbsp_sync_mismatch: pid %d\n", me);
  bsp_end();
  return 0;
}
