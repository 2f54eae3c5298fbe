/* nosync.c: process 1 spins forever without reaching bsp_sync; process 0 waits for it at the
 * barrier. Only --timeout (or a signal) ends a run: the interrupt tests stop shrink, replay and
 * explore with it, and a trace recorded from a timed-out run must end under replay too. */
#include <bsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 1)
    for (volatile unsigned long i = 0;; ++i) {
    }
  bsp_sync();
  bsp_end();
  return 0;
}
