/* get_collisions.c: buffered writes that collide at the rank that gets, which the MPI back end
 * decides there (mpi/report/put_collisions.hpp), as the engine does at its barrier.
 *
 * Superstep 1: process 0 gets process 1's value into `slot` while process 1 puts another value
 * into the same `slot` on process 0. BSPlib defines the outcome (every get's data is written
 * before any put's: the put wins) but the two calls still write different data to the same bytes.
 * Superstep 2: process 0 gets two different values into `slot`, from process p-1 and from itself;
 * which lands last is not defined. Both are put-collision warnings naming the two call sites. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int mine = 100 + s, slot = -1, seven = 7;
  bsp_push_reg(&mine, sizeof mine);
  bsp_push_reg(&slot, sizeof slot);
  bsp_sync();

  if (s == 0) bsp_get(1, &mine, 0, &slot, sizeof slot);   /* BUG: put-collision @ superstep 1, process 0 */
  if (s == 1) bsp_put(0, &seven, &slot, 0, sizeof seven); /* BUG: put-collision @ superstep 1, process 1 */
  bsp_sync();
  if (s == 0) printf("get_collisions: the put landed last: slot %d\n", slot);

  if (s == 0) {
    bsp_get(p - 1, &mine, 0, &slot, sizeof slot); /* BUG: put-collision @ superstep 2, process 0 */
    bsp_get(0, &mine, 0, &slot, sizeof slot);     /* BUG: put-collision @ superstep 2, process 0 */
  }
  bsp_sync();
  bsp_pop_reg(&slot);
  bsp_pop_reg(&mine);
  bsp_end();
  return 0;
}
