/* direct_get_race.c: bsp_direct_get reads its source at once, wherever the owner is in its
 * superstep; here the owner changes the source later in the same superstep, so on MulticoreBSP's
 * threads the value read depends on timing (hp-src-modified at the read). */
#include <mcbsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  const bsp_pid_t p = bsp_nprocs(), s = bsp_pid();
  long value = 10 * (long)s;
  bsp_push_reg(&value, sizeof value);
  bsp_sync();
  long got = -1;
  bsp_direct_get((s + 1) % p, &value, 0, &got, sizeof got); /* BUG: hp-src-modified (some seeds) @ superstep 1, process any */
  value = -value; /* the neighbour may read this or the value before it */
  bsp_sync();
  (void)got;
  bsp_pop_reg(&value);
  bsp_end();
  return 0;
}
