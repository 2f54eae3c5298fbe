/* Process 1 polls a flag that process 0's bsp_hpput sets in the same superstep, with no BSPlib call
   in its loop: the hpput need not land before the sync, so the loop may never end, and reading the
   flag during the superstep is hp-dst-read. Where process 0 runs first, the flag is poisoned when
   process 1 reads it (hp-dst-read at the loop); where process 1 runs first, process 0 never gets
   to call bsp_hpput and the run times out, and the timeout names the hazard: process 1 may be
   waiting without BSPlib calls while process 0 had made no call in this superstep. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  volatile int flag = 0;
  int one = 1;
  bsp_push_reg((void *)&flag, sizeof flag);
  bsp_sync();
  if (s == 0 && p > 1) bsp_hpput(1, &one, (void *)&flag, 0, sizeof one); /* CALL */
  if (s == 1)
    while (flag == 0) { /* BUG: hp-dst-read */
    }
  bsp_sync();
  printf("process %d: flag %d\n", s, flag);
  bsp_pop_reg((void *)&flag);
  bsp_end();
  return 0;
}
