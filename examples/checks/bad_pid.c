/* bad_pid.c: a put names a process that does not exist.
 *
 * A ring shift: each process sends its value to its right neighbour s + 1, forgetting to wrap
 * around, so the last process names process p (BSPlib 2.4: pids range over 0..p-1).
 * Fix: (s + 1) % p: see bad_pid_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int x = -1, v = s;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();

  bsp_put(s + 1, &v, &x, 0, sizeof v); /* BUG: bad-pid @ superstep 1, process last */
  bsp_sync();
  printf("bad_pid: pid %d x %d\n", s, x);
  bsp_pop_reg(&x);
  bsp_sync();
  bsp_end();
  return 0;
}
