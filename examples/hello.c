/* hello.c: the paper's first example (section 2.1.2), in the style where bsp_begin is the first
 * statement of main and bsp_end the last.
 *
 * Every process prints one line. The lines come out in an arbitrary order (the paper says so);
 * their content does not depend on the schedule.
 *
 *   bsp-check run -p 4 --prefix '[%p] ' ./hello
 *   BSPCHECK_OPTIONS=seed=7:procs=4 ./hello
 */
#include <stdio.h>

#include "bsp.h"

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  printf("Hello BSP Worldwide from process %d of %d\n", bsp_pid(), bsp_nprocs());
  bsp_end();
  return 0;
}
