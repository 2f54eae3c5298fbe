/* work.c: measured work for bsp-check show --measure-work (tests/show/measures_test.py). In
 * superstep 0 process 1 computes for a while (about 10^8 additions) and the others do nothing;
 * superstep 1 is empty for all. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  volatile double x = 0;
  if (bsp_pid() == 1)
    for (long i = 0; i < 100000000L; ++i) x += 1.0;
  bsp_sync();
  if (bsp_pid() == 1) printf("x = %.0f\n", x);
  bsp_end();
  return 0;
}
