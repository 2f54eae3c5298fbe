/* hp-dst-read on a global (each process has its own copy): every process puts its number into
   its right neighbour's inbox with bsp_hpput, then adds up its own inbox before the sync. Whichever
   process reads second reads a destination of the other's bsp_hpput. The loop's bound is not a
   constant: ASan does not check reads of a global at constant, in-bounds offsets. */
#include <stdio.h>
#include "bsp.h"
int inbox[4];
int main(void) {
  bsp_begin(2);
  const int p = bsp_nprocs(), s = bsp_pid(), n = p + 2;
  bsp_push_reg(inbox, sizeof inbox);
  bsp_sync();
  bsp_hpput((s + 1) % p, &s, inbox, (int)sizeof(int), sizeof s); /* CALL */
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += inbox[i]; /* BUG: hp-dst-read */
  printf("process %d: early sum %d\n", s, sum);
  bsp_sync();
  bsp_pop_reg(inbox);
  bsp_end();
  return 0;
}
