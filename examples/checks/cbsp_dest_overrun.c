/* cbsp_dest_overrun.c: a cBSP_send that writes past the end of the receiver's variable.
 *
 * Each process sends its row of four values to the next one, into `from_left`, which holds three.
 * cBSP_send writes nbytes at destAddr on the receiver, whatever is there: the fourth value would
 * overwrite the receiver's `checksum`, the global that follows. Fix: make the destination as
 * large as the message (cbsp_dest_overrun_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int from_left[3];
static int checksum;

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int row[4] = {me, me + 1, me + 2, me + 3};
  checksum = 7;
  cBSP_send((me + 1) % p, from_left, row, sizeof row, NULL); /* BUG: cbsp-dest-overrun @ superstep 0, process 0 */
  cBSP_nsync(1);
  printf("cbsp_dest_overrun: pid %d got %d, checksum %d\n", me, from_left[0], checksum);
  bsp_end();
  return 0;
}
