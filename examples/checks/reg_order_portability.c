/* reg_order_portability.c: a pop of an address pushed earlier in the same superstep.
 *
 * Every process registers a 2p-int buffer, then in one superstep "shrinks" it: it pushes the
 * buffer again with p ints and pops it, meaning to drop the old registration. Registrations and
 * de-registrations take effect at the sync, in an order the BSPlib paper leaves open: bsp-check
 * follows program order (the pop removes the p-int registration just pushed and the 2p-int one
 * stays), while a BSPlib that applies all pops first keeps the p-int one. The program writes
 * within p ints, so it works either way here, but its meaning differs between implementations.
 * Fix: pop before pushing (or in another superstep): see reg_order_portability_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *buf = calloc(2 * (size_t)p, sizeof *buf);
  bsp_push_reg(buf, 2 * p * (int)sizeof *buf);
  bsp_sync();

  bsp_push_reg(buf, p * (int)sizeof *buf); /* BUG: reg-order-portability @ superstep 1, process 0 */
  bsp_pop_reg(buf);                        /* BUG: reg-order-portability @ superstep 1, process 0 */
  bsp_sync();

  bsp_put((s + 1) % p, &s, buf, s * (int)sizeof *buf, sizeof s);
  bsp_sync();
  int from = (s + p - 1) % p;
  if (buf[from] != from) bsp_abort("reg_order_portability: pid %d got %d from %d\n", s, buf[from], from);
  printf("reg_order_portability: pid %d got %d\n", s, buf[from]);
  bsp_pop_reg(buf);
  bsp_sync();
  free(buf);
  bsp_end();
  return 0;
}
