/* reg_negative_size.c: bsp_push_reg with a negative size.
 *
 * N elements are block-distributed with blocks of ceil(N/p); process s owns [lo, hi). When p
 * is larger than N the high processes start past the end, hi - lo becomes negative, and that
 * negative number is passed to bsp_push_reg (BSPlib 3.1.2 (7): the size must be nonnegative).
 * Fix: clamp lo to N, so those processes own (and register) zero elements: see
 * reg_negative_size_ok.c. */
#include <stdio.h>

#include "bsp.h"

enum { N = 2 };

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int b = (N + p - 1) / p;
  int lo = s * b, hi = lo + b;
  if (hi > N) hi = N;
  int block[N] = {0};
  for (int i = lo; i < hi; i++) block[i - lo] = i;
  bsp_push_reg(block, (hi - lo) * (int)sizeof(int)); /* BUG: reg-negative-size @ superstep 0, process 3 */
  bsp_sync();
  printf("reg_negative_size: pid %d owns %d..%d\n", s, lo, hi);
  bsp_pop_reg(block);
  bsp_sync();
  bsp_end();
  return 0;
}
