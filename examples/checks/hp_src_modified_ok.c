/* hp_src_modified_ok.c: the correct twin of hp_src_modified.c: the sources of the unbuffered
 * operations stay untouched until the superstep has ended. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int right = (s + 1) % p, left = (s + p - 1) % p;
  int inbox = -1, carry = 100 + s;
  bsp_push_reg(&inbox, sizeof inbox);
  bsp_push_reg(&carry, sizeof carry);
  bsp_sync();

  int v = 10 * s;
  bsp_hpput(right, &v, &inbox, 0, sizeof v);
  bsp_sync();
  v = v + 1; /* FIX: after the sync */

  int got = -1;
  bsp_hpget(left, &carry, 0, &got, sizeof got);
  bsp_sync();
  carry = carry + 1; /* FIX: after the sync */
  if (inbox != 10 * left || got != 100 + left)
    bsp_abort("hp_src_modified_ok: pid %d inbox %d got %d", s, inbox, got);
  printf("hp_src_modified_ok: pid %d inbox %d got %d\n", s, inbox, got);
  bsp_pop_reg(&inbox);
  bsp_pop_reg(&carry);
  bsp_sync();
  bsp_end();
  return 0;
}
