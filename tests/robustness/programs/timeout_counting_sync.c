/* A cBSP run that times out with a process waiting in a counting sync: process 1 waits in
 * cBSP_nsync for a message that never comes, process 0 makes calls (each a chance for process 1
 * to run and block) and then spins without any. The timeout must name process 1 as waiting in
 * cBSP_nsync, not as a process that had not reached its sync. */
#include "bsp.h"
#include "cbsp.h"

int main(void) {
  volatile int stop = 0;
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  if (bsp_pid() == 0)
    for (int i = 0; i < 20; ++i) cBSP_nsync(0);
  else cBSP_nsync(1); /* WAIT */
  if (bsp_pid() == 0) /* LAST CALL of process 0: where it spins */
    while (!stop) {
    }
  bsp_end();
  return 0;
}
