/* bspk_recv_order.c: a BSPk program that assumes bspk_recv returns messages in sender order, which
 * the paper does not promise. Every process but 0 sends its pid to process 0; process 0 aborts if
 * the first message is not from process 1. The default schedule receives them in issue order, so
 * only a deviation finds the bug: bsp-check explore must (tests/tools/local_sync_explore_test.py). */
#include "bsp.h"
#include "bspk.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs();
  bspk_ptr mine = bspk_malloc("", 0, 1, sizeof(int));
  *(int *)bspk_elemP(mine) = me;
  if (me != 0) bspk_send(0, mine, 1);
  bspk_expect(me == 0 ? p - 1 : 0);
  bspk_sync();
  if (me == 0 && p > 1) {
    bspk_ptr first = bspk_recv();
    if (bspk_sender_id(first) != 1) bsp_abort("the first message is from process %d\n", bspk_sender_id(first));
  }
  bspk_free(mine);
  bspk_sync();
  bsp_end();
  return 0;
}
