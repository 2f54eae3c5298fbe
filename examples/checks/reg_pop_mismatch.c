/* reg_pop_mismatch.c: the processes pop different registration slots in the same
 * de-registration.
 *
 * bsp_pop_reg calls need not be in stack order, but the k-th pop of a superstep must name the
 * same slot on every process (BSPlib 3.1). Here process 0 removes its registrations in the
 * order a, b and the others in the order b, a.
 * Fix: pop in the same order everywhere: see reg_pop_mismatch_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int a = 0, b = 0;
  bsp_push_reg(&a, sizeof a);
  bsp_push_reg(&b, sizeof b);
  bsp_sync();

  int va = s, vb = 10 * s;
  bsp_put((s + 1) % p, &va, &a, 0, sizeof va);
  bsp_put((s + 1) % p, &vb, &b, 0, sizeof vb);
  bsp_sync();
  printf("reg_pop_mismatch: pid %d a %d b %d\n", s, a, b);
  bsp_pop_reg(s == 0 ? (void *)&a : (void *)&b); /* BUG: reg-pop-mismatch @ superstep 2, process 0 */
  bsp_pop_reg(s == 0 ? (void *)&b : (void *)&a); /* BUG: reg-pop-mismatch @ superstep 2, process 0 */
  bsp_sync();
  bsp_end();
  return 0;
}
