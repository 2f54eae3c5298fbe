/* get-dst-early-read where ASan's 8-byte granules cannot see it: the destination is the first
   element of a[3], which shares its granule with a[1], a live element. ASan can poison a granule
   only from some byte to its end, so a hardware watchpoint watches those 4 bytes instead
   (runtime/memory_checks/watchpoints.hpp). */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(2);
  int x = 40 + bsp_pid();
  int a[3] = {1, 2, 3};
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0) {
    bsp_get(1, &x, 0, &a[0], sizeof(int)); /* CALL */
    a[2] = a[1] + 1;                       /* the rest of the granule: legal */
    printf("early: %d\n", a[0]);           /* BUG: get-dst-early-read */
  }
  bsp_sync();
  printf("%d: %d %d %d\n", bsp_pid(), a[0], a[1], a[2]);
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
