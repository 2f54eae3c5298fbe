/* cbsp_dest_overrun_ok.c: the correct twin of cbsp_dest_overrun.c. The destination holds the
 * whole row, and a send into the middle of it writes only up to its end. */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int from_left[4];
static int checksum;

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int row[4] = {me, me + 1, me + 2, me + 3};
  checksum = 7;
  cBSP_send((me + 1) % p, from_left, row, sizeof row, NULL);
  cBSP_nsync(1);
  cBSP_send((me + 1) % p, &from_left[2], &row[2], 2 * sizeof(int), NULL);
  cBSP_nsync(1);
  int left = (me + p - 1) % p;
  if (from_left[0] != left || from_left[3] != left + 3 || checksum != 7) bsp_abort("cbsp_dest_overrun_ok: wrong data\n");
  printf("cbsp_dest_overrun_ok: pid %d got %d, checksum %d\n", me, from_left[0], checksum);
  bsp_end();
  return 0;
}
