/* timeout_ok.c: the correct twin of timeout.c: the message is read after the bsp_sync. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int v = s, got = -1, n = 0, nbytes = 0;
  bsp_send((s + 1) % p, NULL, &v, sizeof v);
  bsp_sync(); /* FIX */
  bsp_qsize(&n, &nbytes);
  if (n != 1) bsp_abort("timeout_ok: pid %d has %d messages", s, n);
  bsp_move(&got, sizeof got);
  printf("timeout_ok: pid %d got %d\n", s, got);
  bsp_end();
  return 0;
}
