/* leaves_early.c: process 1 returns from main inside the SPMD part, without bsp_end, while the
 * others go on to a bsp_sync: under MPI the job must end (superstep-mismatch), not hang. With an
 * argument, process 1 hangs instead (it never reaches the sync): mpiexec's timeout must end it. */
#include <stdio.h>
#include <unistd.h>

#include "bsp.h"

int main(int argc, char **argv) {
  (void)argv;
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 1) {
    if (argc > 1)
      for (;;) pause();
    return 0;
  }
  bsp_sync();
  printf("leaves_early: pid %d passed the sync\n", bsp_pid());
  bsp_end();
  return 0;
}
