/* hp-dst-read before the call: process 1 reads x in the superstep in which process 0's bsp_hpput
   writes it. Where process 1 runs first, it reads x before the hpput is called, and nothing is
   poisoned yet; the read and the hpput are concurrent all the same (the hpput may land at any
   moment of the superstep). bsp-check run looks at such a run again with x poisoned from the
   superstep's start: hp-dst-read on every seed, whichever process the schedule runs first. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(2);
  int x = 0, v = 7;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0) bsp_hpput(1, &v, &x, 0, sizeof v); /* CALL */
  else printf("before: %d\n", x);                        /* BUG: hp-dst-read */
  bsp_sync();
  printf("after: %d\n", x);
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
