/* message_order.c: a program that assumes BSMP messages arrive in the order they were sent.
 *
 * Every process sends its value to its two right neighbours, then treats the first message in
 * its queue as coming from its left neighbour. BSPlib promises no order in the queue (section
 * 4: "the messages sent to a process during a superstep have no implied ordering at the
 * receiving end"), so on a real machine the "left value" is sometimes the other one. Under
 * bsp-check the queue order is drawn from the seed: the program's output differs between seeds,
 * which `bsp-check run` reports as schedule-divergence with the first differing line.
 * Fix: put the sender's pid in the tag (bsp_set_tagsize) and pick the message by tag. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int value = 100 + s;
  if (p > 1) bsp_send((s + 1) % p, NULL, &value, sizeof value);
  if (p > 2) bsp_send((s + 2) % p, NULL, &value, sizeof value);
  bsp_sync();
  int left = -1, other = -1;
  if (p > 1) bsp_move(&left, sizeof left); /* BUG: assumes the left neighbour's message is first */
  if (p > 2) bsp_move(&other, sizeof other);
  printf("message_order: pid %d left neighbour's value %d\n", s, left);
  bsp_end();
  return 0;
}
