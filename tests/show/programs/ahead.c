/* ahead.c: how far processes run ahead, for bsp-check show (tests/show/measures_test.py).
 * Process 0 waits in its superstep 0 for a message nobody sends (cbsp-count-excess: the run
 * deadlocks), while process 1 leaves supersteps 0, 1 and 2 with cBSP_nsync(0) and waits in
 * cBSP_gsync in superstep 3: whatever the schedule, process 1 gets 3 supersteps ahead. */
#include "bsp.h"
#include "cbsp.h"

int main(void) {
  bsp_begin(2);
  cBSP_initialize();
  if (bsp_pid() == 0) {
    cBSP_nsync(1); /* never satisfied */
  } else {
    for (int s = 0; s < 3; ++s) cBSP_nsync(0);
  }
  cBSP_gsync();
  bsp_end();
  return 0;
}
