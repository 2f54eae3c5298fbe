/* move_truncated_ok.c: the correct twin of move_truncated.c: the pair is received whole. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int pair[2] = {s, 100 + s};
  bsp_send((s + 1) % p, NULL, pair, sizeof pair);
  bsp_sync();
  int got[2] = {-1, -1}, status = -1;
  bsp_get_tag(&status, NULL);
  if (status != (int)sizeof got) bsp_abort("move_truncated_ok: pid %d: payload of %d bytes", s, status);
  bsp_move(got, sizeof got); /* FIX */
  printf("move_truncated_ok: pid %d key %d value %d\n", s, got[0], got[1]);
  bsp_end();
  return 0;
}
