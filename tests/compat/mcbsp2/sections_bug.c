/* sections_bug.c: a finding in the second of two SPMD sections (MulticoreBSP runs them one after
 * another) is reported at its line, and fails the run like one in the first section. */
#include <mcbsp.h>

static void first(void) {
  bsp_begin(bsp_nprocs());
  bsp_sync();
  bsp_end();
}

static void second(void) {
  bsp_begin(bsp_nprocs());
  int cell = 0, value = 1;
  bsp_push_reg(&cell, sizeof cell);
  bsp_sync();
  bsp_put((bsp_pid() + 1) % bsp_nprocs(), &value, &cell, sizeof cell, sizeof value); /* BUG: bounds-put @ superstep 1, process 0 */
  bsp_sync();
  bsp_pop_reg(&cell);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(first, argc, argv);
  first();
  bsp_init(second, argc, argv);
  second();
  return 0;
}
