/* collision_streak.c: a rare schedule-dependent bug. Both processes put to process 0's x in
   each of 100 supersteps; the program goes wrong only when one process wins the collision in
   supersteps 0..56 and the other in superstep 57: uniform random choices show it with
   probability 2^-57. Used by tests/tools/explore_test.py. */
#include <bsp.h>
#include <stdio.h>

int main(void) {
  bsp_begin(2);
  static int x;
  static int winners[100];
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int mine = bsp_pid() + 1;
  for (int s = 0; s < 100; ++s) {
    bsp_put(0, &mine, &x, 0, sizeof mine);
    bsp_sync();
    if (bsp_pid() == 0) winners[s] = x;
  }
  if (bsp_pid() == 0) {
    int streak = 1;
    for (int s = 1; s < 57; ++s) streak = streak && winners[s] == winners[0];
    if (streak && winners[57] != winners[0]) bsp_abort("collision_streak: the rare schedule\n");
  }
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
