/* finding_between_processes.c: the program the gdb tests debug (gdb_test.py).
 *
 * A bounds-put between two processes: process 0 registers one int and process 1 two, and each
 * puts two ints into the other, so process 1 writes past process 0's registration in superstep 3.
 * Each process keeps its own value in a global (`contribution`, private to each process as with
 * separate processes), which changes in every superstep: the tests print it as each process sees
 * it, at the finding and after going back to superstep 2. Lines marked with a tag are found by
 * the test by that tag, so that editing this file does not break it. */
#include <stdio.h>

#include "bsp.h"

int contribution;        /* each process's own copy */
static int received[2];

int main(void) {
  bsp_begin(2);
  int s = bsp_pid();
  contribution = 100 * (s + 1);
  bsp_push_reg(received, (s + 1) * (int)sizeof(int)); /* process 0 registers one int, process 1 two */
  bsp_sync();                                          /* ends superstep 0 */
  for (int i = 0; i < 2; i++) {
    contribution += s + 1;
    bsp_sync(); /* TAG:loop-sync: ends supersteps 1 and 2 */
  }
  int v[2] = {contribution, contribution};
  bsp_put(1 - s, v, received, 0, 2 * (int)sizeof(int)); /* TAG:bug: bounds-put by process 1 */
  bsp_sync(); /* TAG:last-sync */
  printf("process %d received %d\n", s, received[0]);
  bsp_pop_reg(received);
  bsp_end();
  return 0;
}
