/* superstep_mismatch.c: the processes execute different numbers of bsp_sync.
 *
 * An iteration runs until the LOCAL work is done, and each round ends with a bsp_sync. Process s
 * has s + 1 rounds of work, so the processes leave the loop after different numbers of
 * supersteps: process 0 reaches bsp_end while the others still wait in the loop's bsp_sync
 * (BSPlib 2.1.3 (8), 2.5: all processes pass through the same sequence of bsp_sync calls).
 * Fix: agree on the number of rounds first (here: the maximum over all processes, exchanged with
 * puts) and let every process run that many: see superstep_mismatch_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int work = s + 1, done = 0;
  while (done < work) {
    done++; /* one round of local work */
    bsp_sync(); /* BUG: superstep-mismatch @ superstep 1, process 1 */
  }
  printf("superstep_mismatch: pid %d rounds %d\n", s, done);
  bsp_end();
  return 0;
}
