/* uncontrolled-nondeterminism: what process 0 sends depends on the wall clock and its pid, not
 * on the schedule seed; two runs of one seed send different bytes. Both are sent side by side:
 * two runs at once (the determinism check's run goes beside the one it checks) have different
 * pids, two runs one after the other different times. Their XOR, sent before, was equal now and
 * then for two runs started together: pids n and n + 1 a microsecond apart. */
#include <bsp.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  long x[2] = {0, 0};
  bsp_push_reg(x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0 && bsp_nprocs() > 1) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    long stamp[2] = {(long)tv.tv_sec * 1000000L + (long)tv.tv_usec, (long)getpid()};
    bsp_put(1, stamp, x, 0, sizeof stamp); /* BUG: uncontrolled-nondeterminism */
  }
  bsp_sync();
  bsp_pop_reg(x);
  bsp_end();
  return 0;
}
