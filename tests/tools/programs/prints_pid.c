/* prints_pid.c: makes the same BSPlib calls with the same data under every run of a seed, but
 * prints its OS process id: its output is not a function of the seed. The determinism check
 * names getpid as the source (uncontrolled-nondeterminism), and no schedule is blamed
 * (schedule-divergence). Used by tests/tools/determinism_test.py. */
#include <bsp.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  printf("process %d of %d\n", bsp_pid(), bsp_nprocs());
  bsp_sync();
  printf("process %d runs as %ld\n", bsp_pid(), (long)getpid()); /* BUG: output depends on the pid */
  bsp_end();
  return 0;
}
