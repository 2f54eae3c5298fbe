/* bspk_copy_order.c: a local bspk_copy that reads what a store of the same sync writes.
 *
 * Each process stores its pid into element 0 of its right neighbour's region "in" and, in the
 * same superstep, copies its own "in" (both sides local) into `seen`. The paper orders fetches
 * after stores, not a local copy: `seen` gets the old or the new value depending on the
 * implementation (here: the seed). Fix: copy in the next superstep, after the store has landed
 * (bspk_copy_order_ok.c). */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs();
  bspk_ptr in = bspk_malloc("in", me, 1, sizeof(int));
  bspk_ptr seen = bspk_malloc("", 0, 1, sizeof(int));
  bspk_ptr out = bspk_malloc("", 0, 1, sizeof(int));
  bspk_ptr right = bspk_lookup("in", (me + 1) % p);
  *(int *)bspk_elemP(out) = me;
  bspk_sync();
  bspk_copy(right, out, 1);
  bspk_copy(seen, in, 1); /* BUG: bspk-copy-order @ superstep 1, process 0 */
  bspk_sync();
  printf("bspk_copy_order: pid %d\n", me);
  bsp_end();
  return 0;
}
