/* assumes_all_granted.c: asks bsp_begin for every processor and then assumes it got them all:
   each process puts to its right neighbour modulo the number it asked for, not bsp_nprocs().
   BSPlib lets bsp_begin grant fewer (section 2.1); with --grant-fewer bsp-check does, and the
   put to a process that does not exist is a bad-pid error. Used by tests/tools/explore_test.py. */
#include <bsp.h>

int main(void) {
  const int asked = bsp_nprocs();
  bsp_begin(asked);
  static int x;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  const int mine = bsp_pid();
  bsp_put((bsp_pid() + 1) % asked, &mine, &x, 0, sizeof mine); /* BUG: % bsp_nprocs() */
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
