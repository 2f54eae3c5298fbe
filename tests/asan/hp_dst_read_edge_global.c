/* hp-dst-read of a global where ASan's 8-byte granules cannot see it: process 0 hpgets a flag into
   flags[0], which shares its granule with flags[1], and polls it without a BSPlib call, which no
   BSPlib allows (the hpget may land at any moment, or only at the sync). A hardware watchpoint
   watches the 4 bytes ASan cannot poison (runtime/memory_checks/watchpoints.hpp); as a private global, only
   while process 0 runs. */
#include <stdio.h>
#include "bsp.h"
int ready = 1;
int flags[3];
int main(void) {
  bsp_begin(2);
  bsp_push_reg(&ready, sizeof ready);
  bsp_sync();
  if (bsp_pid() == 0) {
    bsp_hpget(1, &ready, 0, &flags[0], sizeof(int)); /* CALL */
    flags[1] = 7;                                    /* not a destination: legal */
    long spins = 0;
    while (flags[0] == 0 && spins < 100000000) ++spins; /* BUG: hp-dst-read */
    printf("polled %ld times\n", spins);
  }
  bsp_sync();
  printf("%d: %d %d\n", bsp_pid(), flags[0], flags[1]);
  bsp_pop_reg(&ready);
  bsp_end();
  return 0;
}
