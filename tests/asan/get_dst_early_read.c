/* get-dst-early-read: process 0 reads the destination of its bsp_get before the sync. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(2);
  int x = 40 + bsp_pid(), y = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0) {
    bsp_get(1, &x, 0, &y, sizeof y); /* CALL */
    printf("early: %d\n", y);        /* BUG: get-dst-early-read */
  }
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
