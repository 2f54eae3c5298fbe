/* A failure that needs one particular schedule: process 0 aborts in round 3 when the last
 * process's message is first in its queue. The default schedule does not fail; `bsp-check
 * shrink` must find the few choices that make it fail. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), me = bsp_pid();
  int tag = 4;
  bsp_set_tagsize(&tag);
  bsp_sync();
  for (int round = 0; round < 5; ++round) {
    if (me != 0) bsp_send(0, &me, &round, sizeof round);
    bsp_sync();
    if (me == 0) {
      int n, bytes, status, from, first = -1;
      bsp_qsize(&n, &bytes);
      for (int i = 0; i < n; ++i) {
        bsp_get_tag(&status, &from);
        if (i == 0) first = from;
        bsp_move(NULL, 0);
      }
      if (round == 3 && p > 2 && first == p - 1) bsp_abort("round 3: the last process's message came first");
    }
  }
  bsp_end();
  return 0;
}
