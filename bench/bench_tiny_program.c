/* bench_tiny_program.c: issue 47's tiny program, the workload of its goals 1 and 7 (schedules
 * per second of `bsp-check run -p 4 --seeds N`): one registration, three 4-byte puts, two syncs.
 * bench/bench_sanitizer_workers.sh builds it plainly and with -fsanitize=address (and
 * address,undefined) through the build's bspcc. */
#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int x[3] = {1, 2, 3}, dst[3] = {0, 0, 0};
  bsp_push_reg(dst, sizeof dst);
  bsp_sync();
  int to = (bsp_pid() + 1) % bsp_nprocs();
  for (int i = 0; i < 3; ++i) bsp_put(to, &x[i], dst, i * (int)sizeof(int), sizeof(int));
  bsp_sync();
  bsp_pop_reg(dst);
  bsp_end();
  return 0;
}
