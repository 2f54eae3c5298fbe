/* A race that is a property of the superstep, not of the schedule: process 0's bsp_hpput writes
 * `shared` on process 1, which process 2's bsp_hpget of the same superstep reads. Both take effect
 * at any moment until the sync, in no order (BSPlib 3.2, 3.3), so process 2 gets 7 or 100 as the
 * machine's timing has it. bsp-check reports hp-src-modified naming both calls on every schedule,
 * whichever of them the schedule issued or landed first (checker/hp_source_races.hpp).
 * Fix: read in the next superstep (hp_put_on_hpget_source_ok.c). Needs p >= 3. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  int shared = 7, v = 100 + s, got = -1;
  bsp_push_reg(&shared, sizeof shared);
  bsp_sync();
  if (p >= 3 && s == 0) bsp_hpput(1, &v, &shared, 0, sizeof v); /* BUG: hp-src-modified @ superstep 1, process 0 */
  if (p >= 3 && s == 2)
    bsp_hpget(1, &shared, 0, &got, sizeof got); /* BUG: hp-src-modified @ superstep 1, process 2 */
  bsp_sync();
  printf("process %d: shared %d got %d\n", s, shared, got);
  bsp_pop_reg(&shared);
  bsp_sync();
  bsp_end();
  return 0;
}
