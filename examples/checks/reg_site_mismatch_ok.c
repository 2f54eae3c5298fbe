/* reg_site_mismatch_ok.c: the correct twin of reg_site_mismatch.c: every process registers
 * `sums` and then `counts`, at the same lines. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int sums[8] = {0}, counts[8] = {0};
  bsp_push_reg(sums, sizeof sums); /* FIX */
  bsp_push_reg(counts, sizeof counts);
  bsp_sync();

  int one = 1, mine = 10 + s;
  int slot = s % 8;
  if (s < 8) { /* at most 8 slots: processes 8.. have nothing to report */
    bsp_put(0, &one, counts, slot * (int)sizeof(int), sizeof one);
    bsp_put(0, &mine, sums, slot * (int)sizeof(int), sizeof mine);
  }
  bsp_sync();
  if (s == 0) {
    if (counts[0] != 1 || sums[0] != 10) bsp_abort("reg_site_mismatch_ok: counts[0] %d sums[0] %d", counts[0], sums[0]);
    printf("reg_site_mismatch_ok: pid 0 of %d counts[0] %d sums[0] %d\n", p, counts[0], sums[0]);
  }
  bsp_pop_reg(sums);
  bsp_pop_reg(counts);
  bsp_sync();
  bsp_end();
  return 0;
}
