/* bspk_remote_elemp.c: bspk_elemP of a remote comem pointer.
 *
 * Each process dereferences the looked-up pointer to its right neighbour's buffer: only local comem can be dereferenced.
 * Fix: fetch the element with bspk_copy and read it after the sync (bspk_remote_elemp_ok.c). */
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
  int *peek = p > 1 ? (int *)bspk_elemP(to_right) : NULL; /* BUG: bspk-remote-elemp @ superstep 1, process 0 */
  (void)peek;
  bspk_sync();
  printf("bspk_remote_elemp: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
