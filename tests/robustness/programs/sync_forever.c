/* Every process syncs forever (empty supersteps): at p = 1 the time limit comes while process 0
 * runs the barrier itself. The timeout must still name it, at its bsp_sync. */
#include <bsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  for (;;) bsp_sync(); /* AT */
  bsp_end();
  return 0;
}
