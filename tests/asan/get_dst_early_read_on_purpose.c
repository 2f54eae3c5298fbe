/* A conforming program that reads the destinations of its bsp_gets before the sync on purpose, as
   a BSPlib implementation's semantic tests do: BSPlib 3.3 writes a get's destination at the end of
   the superstep, so an earlier read sees the old contents. It checks that they are unchanged, and
   that the sync then brings the fetched values. get-dst-early-read warns at the two marked reads
   (a load, and memcmp's read through ASan's interceptor); the program goes on, runs to its end and
   passes. It aborts if a read saw anything else. */
#include <stdio.h>
#include <string.h>
#include "bsp.h"

static volatile size_t int_size = sizeof(int); /* keeps memcmp a call: ASan's interceptor reads */

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid(), from = (s + 1) % p;
  int x = 100 + s;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  for (int round = 0; round < 3; ++round) {
    int y = -1 - round, z = -10 - round;
    const int old_z = z;
    bsp_get(from, &x, 0, &y, sizeof y); /* CALL */
    bsp_get(from, &x, 0, &z, sizeof z);
    if (y != -1 - round) /* BUG: get-dst-early-read (on purpose: the contents before the get) */
      bsp_abort("process %d: the destination changed before the sync (%d)\n", s, y);
    if (memcmp(&z, &old_z, int_size) != 0) /* BUG: get-dst-early-read (on purpose, through memcmp) */
      bsp_abort("process %d: the second destination changed before the sync\n", s);
    bsp_sync();
    if (y != 100 + from + round || z != y)
      bsp_abort("process %d: round %d fetched %d and %d, not %d\n", s, round, y, z, 100 + from + round);
    x += 1; /* the next round's gets read it at their sync */
  }
  bsp_pop_reg(&x);
  bsp_sync();
  printf("process %d: every early read saw the old contents, every sync the fetched value\n", s);
  bsp_end();
  return 0;
}
