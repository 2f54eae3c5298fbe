/* reg_pop_unknown_ok.c: the correct twin of reg_pop_unknown.c: pop the address that was
 * pushed (the block, not the pointer variable). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *buf = calloc(4, sizeof(int));
  bsp_push_reg(buf, 4 * sizeof(int));
  bsp_sync();

  int v = s;
  bsp_put((s + 1) % p, &v, buf, 0, sizeof v);
  bsp_sync();
  printf("reg_pop_unknown_ok: pid %d got %d\n", s, buf[0]);
  bsp_pop_reg(buf); /* FIX */
  bsp_sync();
  free(buf);
  bsp_end();
  return 0;
}
