/* reg_site_mismatch.c: one registration slot pairs different variables on different
 * processes (the processes push their registrations in different orders).
 *
 * Process 0 registers `sums` first and `counts` second; the others the other way round. The
 * k-th registrations form one slot, so slot 1 is process 0's `sums` together with everyone
 * else's `counts`: a put into `counts` on process 0 lands in its `sums`. BSPlib allows this
 * (only the sizes and order matter), which is why it is only a warning (reg-site-mismatch: the
 * slot pairs bsp_push_reg calls from different source lines), but it is almost always a bug.
 * Fix: register in the same order on every process: see reg_site_mismatch_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int sums[8] = {0}, counts[8] = {0};
  if (s == 0) {
    bsp_push_reg(sums, sizeof sums); /* BUG: reg-site-mismatch @ superstep 0, process 0 */
    bsp_push_reg(counts, sizeof counts); /* BUG: reg-site-mismatch @ superstep 0, process 0 */
  } else {
    bsp_push_reg(counts, sizeof counts); /* BUG: reg-site-mismatch @ superstep 0, process 1 */
    bsp_push_reg(sums, sizeof sums); /* BUG: reg-site-mismatch @ superstep 0, process 1 */
  }
  bsp_sync();

  int one = 1, mine = 10 + s;
  int slot = s % 8;
  bsp_put(0, &one, counts, slot * (int)sizeof(int), sizeof one);
  bsp_put(0, &mine, sums, slot * (int)sizeof(int), sizeof mine);
  bsp_sync();
  if (s == 0) printf("reg_site_mismatch: pid 0 of %d counts[0] %d sums[0] %d\n", p, counts[0], sums[0]);
  /* The k-th pop must name the same slot everywhere, so the pops follow each process's push order. */
  bsp_pop_reg(s == 0 ? sums : counts);
  bsp_pop_reg(s == 0 ? counts : sums);
  bsp_sync();
  bsp_end();
  return 0;
}
