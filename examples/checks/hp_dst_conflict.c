/* hp_dst_conflict.c: the destination of an unbuffered get is written by its owner in the same
 * superstep.
 *
 * bsp_hpget may write its destination at any moment between the call and the end of the
 * superstep (BSPlib 3.3). Here each process issues an hpget of its left neighbour's value into
 * `got` and only then initialises `got` to a default. Depending on when the transfer happens
 * the process ends the superstep with the neighbour's value or with the default. bsp-check
 * reports hp-dst-conflict at the bsp_hpget (also when the destination is written by another
 * put or get of the superstep).
 * Fix: initialise the destination before the call and do not touch it until the bsp_sync: see
 * hp_dst_conflict_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p;
  int value = 100 + s, got = 7;
  bsp_push_reg(&value, sizeof value);
  bsp_sync();

  bsp_hpget(left, &value, 0, &got, sizeof got); /* BUG: hp-dst-conflict @ superstep 1, process any */
  got = -1; /* the default, written while the hpget may already have landed */
  bsp_sync();
  printf("hp_dst_conflict: pid %d got %d\n", s, got);
  bsp_pop_reg(&value);
  bsp_sync();
  bsp_end();
  return 0;
}
