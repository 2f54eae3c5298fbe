/* bad_pid_ok.c: the correct twin of bad_pid.c: the ring wraps around. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int x = -1, v = s;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();

  bsp_put((s + 1) % p, &v, &x, 0, sizeof v); /* FIX */
  bsp_sync();
  if (x != (s + p - 1) % p) bsp_abort("bad_pid_ok: pid %d got %d", s, x);
  printf("bad_pid_ok: pid %d x %d\n", s, x);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
