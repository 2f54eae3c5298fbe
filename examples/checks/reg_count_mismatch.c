/* reg_count_mismatch.c: the processes call bsp_push_reg different numbers of times in one
 * superstep.
 *
 * The k-th bsp_push_reg of a superstep on every process forms one registration slot (BSPlib
 * 3.1). Here only process 0 registers a second area, a scratch buffer it alone needs; the other
 * processes have no partner call for it, so the slots cannot be formed.
 * Fix: every process makes the same registrations (an unused area may be registered with
 * NULL or size 0): see reg_count_mismatch_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int value = s, scratch[4] = {0};
  bsp_push_reg(&value, sizeof value);
  if (s == 0) bsp_push_reg(scratch, sizeof scratch); /* BUG: reg-count-mismatch @ superstep 0, process 0 */
  bsp_sync();

  int v = s;
  bsp_put((s + 1) % p, &v, &value, 0, sizeof v);
  bsp_sync();
  printf("reg_count_mismatch: pid %d value %d\n", s, value);
  bsp_pop_reg(&value);
  if (s == 0) bsp_pop_reg(scratch);
  bsp_end();
  return 0;
}
