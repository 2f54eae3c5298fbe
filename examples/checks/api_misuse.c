/* api_misuse.c: bsp_move on an empty message queue.
 *
 * A shift along a line (not a ring): each process but the last sends its value to its right
 * neighbour, and every process then takes "its" message with bsp_move without looking whether
 * one arrived. Process 0 has none. BSPlib primitives must be given valid arguments and state;
 * bsp-check reports this group of mistakes as api-misuse (others: negative sizes or offsets,
 * NULL buffers with nbytes > 0, calls outside bsp_begin/bsp_end, a second bsp_begin).
 * Fix: ask bsp_qsize (or bsp_get_tag) first: see api_misuse_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int v = 10 * s, got = -1;
  if (s + 1 < p) bsp_send(s + 1, NULL, &v, sizeof v);
  bsp_sync();
  bsp_move(&got, sizeof got); /* BUG: api-misuse @ superstep 1, process 0 */
  printf("api_misuse: pid %d got %d\n", s, got);
  bsp_end();
  return 0;
}
