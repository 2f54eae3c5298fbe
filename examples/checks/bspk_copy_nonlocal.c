/* bspk_copy_nonlocal.c: a bspk_copy with no local side.
 *
 * Each process copies its right neighbour's buffer into its left neighbour's: both regions are remote, which BSPk does not allow.
 * Fix: fetch into a local region first, then store from it (bspk_copy_nonlocal_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs(), right = (me + 1) % p, left = (me + p - 1) % p;
  bspk_ptr buf = bspk_malloc("buf", me, 1, sizeof(int));
  bspk_ptr to_right = bspk_lookup("buf", right);
  bspk_ptr out = bspk_malloc("", 0, 1, sizeof(int));
  *(int *)bspk_elemP(out) = me;
  bspk_sync();
  bspk_ptr to_left = bspk_lookup("buf", left);
  if (p > 1 && left != right) bspk_copy(to_left, to_right, 1); /* BUG: bspk-copy-nonlocal @ superstep 1, process 0 */
  bspk_sync();
  printf("bspk_copy_nonlocal: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
