/* reg_order_portability_ok.c: the correct twin of reg_order_portability.c: the old
 * registration is popped before the new one is pushed, which means the same under every order
 * in which a BSPlib applies a superstep's registrations. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *buf = calloc(2 * (size_t)p, sizeof *buf);
  bsp_push_reg(buf, 2 * p * (int)sizeof *buf);
  bsp_sync();

  bsp_pop_reg(buf); /* FIX */
  bsp_push_reg(buf, p * (int)sizeof *buf);
  bsp_sync();

  bsp_put((s + 1) % p, &s, buf, s * (int)sizeof *buf, sizeof s);
  bsp_sync();
  int from = (s + p - 1) % p;
  if (buf[from] != from) bsp_abort("reg_order_portability_ok: pid %d got %d from %d\n", s, buf[from], from);
  printf("reg_order_portability_ok: pid %d got %d\n", s, buf[from]);
  bsp_pop_reg(buf);
  bsp_sync();
  free(buf);
  bsp_end();
  return 0;
}
