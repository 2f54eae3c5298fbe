/* hp_src_modified.c: the source of an unbuffered put or get changes before the superstep ends.
 *
 * bsp_hpput and bsp_hpget are unbuffered (BSPlib 3.2, 3.3): the transfer may happen at any
 * moment between the call and the end of the superstep, reading the source at that moment, so
 * "no process should change the source data structures used during the course of the
 * superstep". Two mistakes:
 *   1. the caller reuses the source variable of its bsp_hpput right after the call;
 *   2. the owner of the source of a bsp_hpget (the left neighbour) updates it in the same
 *      superstep in which the right neighbour reads it.
 * Whether the receiver sees the old or the new value depends on timing: on a machine with
 * fast remote writes the program seems to work. bsp-check reports hp-src-modified at the
 * bsp_hpput/bsp_hpget whose source changed between the call and the end of the superstep.
 * Mistake 1 is found on every schedule. Mistake 2 is found for each neighbour pair in which the
 * owner's update comes after the neighbour's bsp_hpget call, which around a ring (or with p = 1)
 * happens for at least one pair under every schedule.
 * Fix: leave the source alone until after the bsp_sync, or use the buffered bsp_put/bsp_get:
 * see hp_src_modified_ok.c. */
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
  bsp_hpput(right, &v, &inbox, 0, sizeof v); /* BUG: hp-src-modified @ superstep 1, process 0 */
  v = v + 1; /* the source is reused while the hpput may not have read it yet */
  bsp_sync();

  int got = -1;
  bsp_hpget(left, &carry, 0, &got, sizeof got); /* BUG: hp-src-modified @ superstep 2, process any */
  carry = carry + 1; /* the right neighbour may still read carry */
  bsp_sync();
  printf("hp_src_modified: pid %d inbox %d got %d\n", s, inbox, got);
  bsp_pop_reg(&inbox);
  bsp_pop_reg(&carry);
  bsp_sync();
  bsp_end();
  return 0;
}
