/* cbsp_dest_not_global.c: a cBSP_send whose destination is the sender's own local variable.
 *
 * Each process sends its id to the next one, into `from_left`, a local array of main. cBSP's
 * destAddr is an address in the receiving node's memory; the sender's stack address names
 * nothing there (on a real machine it lands wherever the receiver has that address, if
 * anywhere). Fix: make the destination a global or static, which names the receiver's own copy
 * (cbsp_dest_not_global_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int from_left[1] = {-1};
  if (p > 1) cBSP_send((me + 1) % p, from_left, &me, sizeof me, NULL); /* BUG: cbsp-dest-not-global @ superstep 0, process 0 */
  cBSP_nsync(p > 1 ? 1 : 0);
  printf("cbsp_dest_not_global: pid %d got %d\n", me, from_left[0]);
  bsp_end();
  return 0;
}
