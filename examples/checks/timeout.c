/* timeout.c: processes wait for a message that cannot arrive before the next bsp_sync.
 *
 * Each process sends a value to its right neighbour and then polls bsp_qsize until the
 * neighbour's message shows up. Messages sent in a superstep are readable only in the next one
 * (BSPlib 4.1), so the queue stays empty and no process ever reaches the bsp_sync: the program
 * hangs, on a real machine and under bsp-check. With --timeout SEC bsp-check stops it and
 * reports `timeout` with the line each process was at.
 * Fix: bsp_sync, then read the queue: see timeout_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int v = s, got = -1, n = 0, nbytes = 0;
  bsp_send((s + 1) % p, NULL, &v, sizeof v);
  do bsp_qsize(&n, &nbytes); while (n == 0); /* BUG: timeout @ superstep 0, process 0 */
  bsp_move(&got, sizeof got);
  bsp_sync();
  printf("timeout: pid %d got %d\n", s, got);
  bsp_end();
  return 0;
}
