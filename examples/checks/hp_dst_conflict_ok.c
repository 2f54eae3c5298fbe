/* hp_dst_conflict_ok.c: the correct twin of hp_dst_conflict.c: the destination is initialised
 * before the bsp_hpget and left alone until the bsp_sync. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p;
  int value = 100 + s, got = 7;
  bsp_push_reg(&value, sizeof value);
  bsp_sync();

  got = -1; /* FIX: before the call */
  bsp_hpget(left, &value, 0, &got, sizeof got);
  bsp_sync();
  if (got != 100 + left) bsp_abort("hp_dst_conflict_ok: pid %d got %d", s, got);
  printf("hp_dst_conflict_ok: pid %d got %d\n", s, got);
  bsp_pop_reg(&value);
  bsp_sync();
  bsp_end();
  return 0;
}
