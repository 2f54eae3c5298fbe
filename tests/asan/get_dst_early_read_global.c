/* get-dst-early-read on a global (each process has its own copy): process 0 gets a value into one
   element of a global array and adds up the array before the sync. The index is not a constant:
   ASan does not check reads of a global at constant, in-bounds offsets. */
#include <stdio.h>
#include "bsp.h"
int value;
int got[4];
int main(void) {
  bsp_begin(2);
  const int p = bsp_nprocs();
  value = 40 + bsp_pid();
  bsp_push_reg(&value, sizeof value);
  bsp_sync();
  if (bsp_pid() == 0) {
    bsp_get(p - 1, &value, 0, &got[p - 1], sizeof(int)); /* CALL */
    int sum = 0;
    for (int i = 0; i < p + 2; ++i) sum += got[i]; /* BUG: get-dst-early-read */
    printf("early: %d\n", sum);
  }
  bsp_sync();
  bsp_pop_reg(&value);
  bsp_end();
  return 0;
}
