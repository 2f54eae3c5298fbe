/* wrapped_get.c: gets through a helper in another C file (wrap_lib.c); one reads past the end of
 * its area. With --wrappers=wrap_lib.c the finding names the line of this file that called it. */
#include <bsp.h>

#include "wrap_lib.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int area[4] = {1, 2, 3, 4};
  int pair[2];
  bsp_push_reg(area, sizeof area);
  bsp_sync();
  const int next = (bsp_pid() + 1) % bsp_nprocs();
  get_pair(next, area, 0, pair); /* fine */
  bsp_sync();
  get_pair(next, area, 3, pair); /* WRONG: elements 3..4 of a 4-element area */
  bsp_sync();
  bsp_pop_reg(area);
  bsp_end();
  return 0;
}
