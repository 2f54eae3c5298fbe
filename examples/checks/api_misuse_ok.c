/* api_misuse_ok.c: the correct twin of api_misuse.c: a message is moved only when bsp_qsize
 * says there is one. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int v = 10 * s, got = -1;
  if (s + 1 < p) bsp_send(s + 1, NULL, &v, sizeof v);
  bsp_sync();
  int n = 0, nbytes = 0;
  bsp_qsize(&n, &nbytes); /* FIX */
  if (n > 0) bsp_move(&got, sizeof got);
  printf("api_misuse_ok: pid %d got %d\n", s, got);
  bsp_end();
  return 0;
}
