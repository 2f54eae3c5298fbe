/* hp-dst-read before the call, the destination a global: each process has its own copy of inbox at
   one address (--globals private), poisoned from the superstep's start only while process 1, whose
   copy process 0's bsp_hpput writes, runs. Where process 1 runs first, it adds up its inbox before
   the hpput is called. The loop's bound is not a constant: ASan does not check reads of a global
   at constant, in-bounds offsets. */
#include <stdio.h>
#include "bsp.h"
int inbox[4];
int main(void) {
  bsp_begin(2);
  const int s = bsp_pid(), n = bsp_nprocs() + 2;
  bsp_push_reg(inbox, sizeof inbox);
  bsp_sync();
  if (s == 0) bsp_hpput(1, &s, inbox, (int)sizeof(int), sizeof s); /* CALL */
  int sum = 0;
  if (s == 1)
    for (int i = 0; i < n; ++i) sum += inbox[i]; /* BUG: hp-dst-read */
  printf("process %d: early sum %d\n", s, sum);
  bsp_sync();
  bsp_pop_reg(inbox);
  bsp_end();
  return 0;
}
