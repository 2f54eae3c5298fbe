/* bspk_use_after_free.c: a comem region used after bspk_free.
 *
 * The program frees its outgoing region and then writes into it.
 * Fix: free a region only when it is no longer used, and not before the sync after its last send or copy (bspk_use_after_free_ok.c). */
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
  bspk_free(out);
  int *gone = (int *)bspk_elemP(out); /* BUG: bspk-use-after-free @ superstep 1, process 0 */
  (void)gone;
  bspk_sync();
  printf("bspk_use_after_free: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
