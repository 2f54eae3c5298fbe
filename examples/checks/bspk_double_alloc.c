/* bspk_double_alloc.c: a name and index allocated twice.
 *
 * Every process allocates ("total", 0): the name no longer names one region.
 * Fix: use the process id as index, or allocate on one process (bspk_double_alloc_ok.c). */
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
  bspk_ptr total = bspk_malloc("total", 0, 1, sizeof(int)); /* BUG: bspk-double-alloc @ superstep 1, process 0 */
  (void)total;
  bspk_sync();
  printf("bspk_double_alloc: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
