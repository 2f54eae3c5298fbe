/* bspk_count_mismatch.c: bspk_expect announces more messages than arrive.
 *
 * Each process stores its pid into its right neighbour's buffer and so receives one message, but announces two: with a lazy barrier it waits for a message that never comes (on a real machine: a hang). bsp-check lists each process's state.
 * Fix: announce exactly the messages the process receives (bspk_count_mismatch_ok.c). */
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
  bspk_copy(to_right, out, 1);
  bspk_expect(2); bspk_sync(); /* BUG: bspk-count-mismatch @ superstep 1, process 0 */
  printf("bspk_count_mismatch: pid %d\n", me);
  bsp_end();
  (void)left;
  (void)buf;
  (void)to_right;
  return 0;
}
