/* queue_unconsumed.c: messages are left unread when the superstep ends.
 *
 * Every process sends one message to every process (an all-to-all of counts), and each then
 * reads a single message, as if there were only one sender. The other p - 1 messages vanish at
 * the next bsp_sync (BSPlib 4: unread messages are discarded), and so do their counts.
 * bsp-check warns (queue-unconsumed) at that bsp_sync with the number of unread messages and
 * their senders.
 * Fix: read bsp_qsize messages: see queue_unconsumed_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  for (int t = 0; t < p; t++) {
    int count = 10 * s + t;
    bsp_send(t, NULL, &count, sizeof count);
  }
  bsp_sync();
  int count = 0, sum = 0;
  bsp_move(&count, sizeof count);
  sum += count;
  bsp_sync(); /* BUG: queue-unconsumed @ superstep 1, process 0 */
  /* sum depends on which message came first; printing it would also be a schedule-divergence. */
  (void)sum;
  printf("queue_unconsumed: pid %d read one message\n", s);
  bsp_end();
  return 0;
}
