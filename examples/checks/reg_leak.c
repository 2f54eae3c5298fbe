/* reg_leak.c: a registration is still active at bsp_end.
 *
 * A helper registers a scratch array on its own stack frame, uses it for one exchange, and
 * returns without bsp_pop_reg. The registration outlives the frame: the slot now names dead
 * stack memory that later calls reuse, and every call adds one more slot (registrations are
 * looked up by address; implementations keep them in a stack or table that only grows).
 * bsp-check warns at bsp_end (reg-leak) and names the bsp_push_reg of each leaked slot.
 * Fix: pop what you push, in the same function: see reg_leak_ok.c. */
#include <stdio.h>

#include "bsp.h"

static int neighbour_sum(int x) {
  int p = bsp_nprocs(), s = bsp_pid();
  int scratch[2] = {0, 0};
  bsp_push_reg(scratch, sizeof scratch); /* BUG: reg-leak @ superstep 2, process 0 */
  bsp_sync();
  bsp_put((s + 1) % p, &x, scratch, 0, sizeof x);
  bsp_put((s + p - 1) % p, &x, scratch, sizeof x, sizeof x);
  bsp_sync();
  return scratch[0] + scratch[1];
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int r = neighbour_sum(s);
  printf("reg_leak: pid %d neighbour sum %d\n", s, r);
  bsp_end();
  return 0;
}
