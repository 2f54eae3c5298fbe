/* A warning, then the run goes on forever: process 0 spins without a BSPlib call after the sync
 * that reported it, the others wait in the next bsp_sync. The test kills the run from outside
 * (SIGKILL, as the kernel's out-of-memory killer would) once the warning is printed; the
 * reports must keep it. */
#include <bsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  int x = 0;
  volatile int stop = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  int mine = bsp_pid() + 1;
  if (bsp_pid() != 0) bsp_put(0, &mine, &x, 0, sizeof mine); /* WARNING: put-collision */
  bsp_sync();
  if (bsp_pid() == 0)
    while (!stop) {
    } /* SPIN */
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
