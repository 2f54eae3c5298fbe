/* hpsend_race.c: MulticoreBSP's bsp_hpsend does not copy its tag and payload at the call; it may
 * read them at any moment until the end of the next sync. Reusing the payload buffer before the
 * sync sends whatever it holds when the library gets to it (hp-src-modified at the send). */
#include <mcbsp.h>
#include <stdio.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  const bsp_pid_t p = bsp_nprocs(), s = bsp_pid();
  long buffer = 100 + (long)s;
  bsp_hpsend((s + 1) % p, NULL, &buffer, sizeof buffer); /* BUG: hp-src-modified @ superstep 0, process 0 */
  buffer = -1; /* reused before the sync */
  bsp_sync();
  long got = 0;
  bsp_move(&got, sizeof got);
  printf("process %u received %ld\n", s, got);
  bsp_end();
  return 0;
}
