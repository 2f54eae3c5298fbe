/* reverse.c: the paper's reverse function (section 3.2.2).
 *
 * reverse(x) is collective: on process i it returns the x of process p-1-i. It registers its own
 * parameter, puts it into the mirror process, and pops the registration (which takes effect at
 * the next bsp_sync). Because bsp_put is buffered on source and on destination, sending from and
 * receiving into the same variable in one superstep is safe.
 *
 * The program calls reverse twice, so the second call registers the same stack address in the
 * superstep where the first call's registration is popped; reversing twice gives x back.
 *
 * Output, one line per process s:  reverse: pid s x X once Y twice Z
 * where X = 100*s + 7, Y = 100*(p-1-s) + 7 and Z = X.
 */
#include <stdio.h>

#include "bsp.h"

static int reverse(int x) {
  bsp_push_reg(&x, sizeof(int));
  bsp_sync();

  bsp_put(bsp_nprocs() - bsp_pid() - 1, &x, &x, 0, sizeof(int));
  bsp_sync();
  bsp_pop_reg(&x);
  return x;
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int x = 100 * s + 7;
  int once = reverse(x);
  int twice = reverse(once);
  printf("reverse: pid %d x %d once %d twice %d\n", s, x, once, twice);
  if (twice != x) bsp_abort("reverse: pid %d got %d back instead of %d", s, twice, x);
  bsp_end();
  return 0;
}
