/* uncontrolled-nondeterminism: what process 0 sends depends on the wall clock and its pid, not
 * on the schedule seed; two runs of one seed send different bytes. */
#include <bsp.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  int x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0 && bsp_nprocs() > 1) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    int stamp = (int)(tv.tv_usec ^ getpid());
    bsp_put(1, &stamp, &x, 0, sizeof stamp); /* BUG: uncontrolled-nondeterminism */
  }
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
