/* A run that times out with its processes in different states: process 0 spins without any
 * BSPlib call, at the start (the others have run or not, as the schedule chose) or after the
 * first bsp_sync (the others wait in their next one). The timeout must name every process with
 * its state and location. argv[1] = "late": spin after the first sync. */
#include <string.h>

#include <bsp.h>

int main(int argc, char** argv) {
  int late = argc > 1 && strcmp(argv[1], "late") == 0;
  volatile int stop = 0;
  bsp_begin(bsp_nprocs()); /* BEGIN */
  if (!late && bsp_pid() == 0)
    while (!stop) {} /* SPIN EARLY */
  bsp_sync(); /* FIRST SYNC */
  if (bsp_pid() == 0)
    while (!stop) {} /* SPIN LATE */
  bsp_sync(); /* WAIT */
  bsp_end();
  return 0;
}
