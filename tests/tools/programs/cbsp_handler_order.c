/* cbsp_handler_order.c: a cBSP program that assumes its handlers run in sender order, which the
 * paper does not promise ("no order among handlers"). Every process but 0 sends its pid to
 * process 0 with a handler that logs the sender; process 0 aborts if the log is not 1, 2, ...
 * The default schedule runs them in issue order, so only a deviation finds the bug: bsp-check
 * explore must (tests/tools/local_sync_explore_test.py). */
#include <stddef.h>

#include "bsp.h"
#include "cbsp.h"

static int order[64], seen;
static int payload;

static void logged(int src, void *dest, int nbytes) {
  (void)dest;
  (void)nbytes;
  order[seen++] = src;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  payload = me;
  if (me != 0) cBSP_send(0, NULL, &payload, sizeof payload, logged);
  cBSP_nsync(me == 0 ? p - 1 : 0);
  if (me == 0)
    for (int i = 0; i < seen; ++i)
      if (order[i] != i + 1) bsp_abort("handler %d ran for process %d: not in sender order\n", i, order[i]);
  cBSP_gsync();
  bsp_end();
  return 0;
}
