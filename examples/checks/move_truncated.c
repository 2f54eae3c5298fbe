/* move_truncated.c: bsp_move with a reception buffer smaller than the message.
 *
 * The sender sends a (key, value) pair of two ints; the receiver moves the message into a single
 * int. bsp_move copies at most reception_nbytes bytes (BSPlib 4.3.2) and the rest of the payload
 * is silently lost: here the value. bsp-check warns (move-truncated) at the bsp_move.
 * Fix: receive into a buffer as large as the payload (bsp_get_tag's status gives its length):
 * see move_truncated_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int pair[2] = {s, 100 + s};
  bsp_send((s + 1) % p, NULL, pair, sizeof pair);
  bsp_sync();
  int key = -1;
  bsp_move(&key, sizeof key); /* BUG: move-truncated @ superstep 1, process 0 */
  printf("move_truncated: pid %d key %d\n", s, key);
  bsp_end();
  return 0;
}
