/* reg_negative_size_ok.c: the correct twin of reg_negative_size.c: lo is clamped to N, so the
 * processes beyond the data own and register zero elements. */
#include <stdio.h>

#include "bsp.h"

enum { N = 2 };

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int b = (N + p - 1) / p;
  int lo = s * b, hi = lo + b;
  if (lo > N) lo = N; /* FIX */
  if (hi > N) hi = N;
  int block[N] = {0};
  for (int i = lo; i < hi; i++) block[i - lo] = i;
  bsp_push_reg(block, (hi - lo) * (int)sizeof(int));
  bsp_sync();
  printf("reg_negative_size_ok: pid %d owns %d..%d\n", s, lo, hi);
  bsp_pop_reg(block);
  bsp_sync();
  bsp_end();
  return 0;
}
