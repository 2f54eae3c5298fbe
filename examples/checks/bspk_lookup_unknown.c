/* bspk_lookup_unknown.c: a lookup of a name no process allocates.
 *
 * The program looks up "bufs" (a typo for "buf") and stores into it; no process ever allocates that name.
 * Fix: look up the name that is allocated (bspk_lookup_unknown_ok.c). */
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
  bspk_ptr typo = bspk_lookup("bufs", right); /* BUG: bspk-lookup-unknown @ superstep 1, process 0 */
  bspk_copy(typo, out, 1);
  bspk_sync();
  printf("bspk_lookup_unknown: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
