/* cbsp_dest_not_global_ok.c: the correct twin of cbsp_dest_not_global.c: the destination is a
 * static array, so the address names the receiver's own copy. */
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

static int from_left[1] = {-1};

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  if (p > 1) cBSP_send((me + 1) % p, from_left, &me, sizeof me, NULL);
  cBSP_nsync(p > 1 ? 1 : 0);
  if (p > 1 && from_left[0] != (me + p - 1) % p) bsp_abort("wrong value\n");
  printf("cbsp_dest_not_global_ok: pid %d\n", me);
  bsp_end();
  return 0;
}
