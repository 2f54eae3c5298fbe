/* bspk_out_of_bounds.c: bspk_incr past the end of a comem region.
 *
 * The buffer has one element; the program steps two elements into it.
 * Fix: keep positions within the region (bspk_out_of_bounds_ok.c). */
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
  bspk_ptr past = bspk_incr(buf, 2); /* BUG: bspk-out-of-bounds @ superstep 1, process 0 */
  (void)past;
  bspk_sync();
  printf("bspk_out_of_bounds: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
