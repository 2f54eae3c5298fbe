/* queue_unconsumed_ok.c: the correct twin of queue_unconsumed.c: every message is read. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  for (int t = 0; t < p; t++) {
    int count = 10 * s + t;
    bsp_send(t, NULL, &count, sizeof count);
  }
  bsp_sync();
  int n = 0, nbytes = 0, count = 0, sum = 0;
  bsp_qsize(&n, &nbytes); /* FIX */
  for (int i = 0; i < n; i++) {
    bsp_move(&count, sizeof count);
    sum += count;
  }
  bsp_sync();
  int expect = 0;
  for (int t = 0; t < p; t++) expect += 10 * t + s;
  if (sum != expect) bsp_abort("queue_unconsumed_ok: pid %d sum %d, expected %d", s, sum, expect);
  printf("queue_unconsumed_ok: pid %d sum %d\n", s, sum);
  bsp_end();
  return 0;
}
