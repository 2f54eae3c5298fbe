/* hpmove-stale: a pointer from bsp_hpmove is used after the superstep it was valid in. */
#include <stdio.h>
#include "bsp.h"
int main(void) {
  bsp_begin(2);
  double v = 1.5 * bsp_pid();
  bsp_send(1 - bsp_pid(), NULL, &v, sizeof v);
  bsp_sync();
  void *tag, *payload;
  bsp_hpmove(&tag, &payload); /* CALL */
  bsp_sync();
  printf("stale: %g\n", *(double *)payload); /* BUG: hpmove-stale */
  bsp_end();
  return 0;
}
