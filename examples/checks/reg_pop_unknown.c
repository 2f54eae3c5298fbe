/* reg_pop_unknown.c: bsp_pop_reg names an address that is not registered.
 *
 * The area registered is the heap block `buf` points to, but the pop names `&buf`, the address
 * of the pointer variable: a classic slip with malloc'ed buffers. The registration is never
 * removed (and bsp-check also warns that it leaks).
 * Fix: pop the same address that was pushed: see reg_pop_unknown_ok.c. */
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
  printf("reg_pop_unknown: pid %d got %d\n", s, buf[0]);
  bsp_pop_reg(&buf); /* BUG: reg-pop-unknown @ superstep 2, process 0 */
  bsp_sync();
  free(buf);
  bsp_end();
  return 0;
}
