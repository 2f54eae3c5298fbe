/* nested.c: a nested SPMD section (bsp_begin inside a running one, MulticoreBSP 2.x's
 * hierarchical runs) is not supported: its bsp_begin is api-misuse, and the calls up to its
 * bsp_end run in the enclosing section, which goes on after that bsp_end. */
#include <mcbsp.h>

static void inner(void) {
  bsp_begin(bsp_nprocs()); /* BUG: api-misuse @ superstep 0, process 0 */
  bsp_sync();
  bsp_end();
}

static void outer(void) {
  bsp_begin(bsp_nprocs());
  bsp_init(inner, 0, NULL);
  inner();
  const int p = (int)bsp_nprocs(), s = (int)bsp_pid();
  int got = -1, mine = s;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  bsp_put((bsp_pid_t)((s + 1) % p), &mine, &got, 0, sizeof mine);
  bsp_sync();
  if (got != (s + p - 1) % p) bsp_abort("the enclosing section did not go on: got %d", got);
  bsp_pop_reg(&got);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(outer, argc, argv);
  outer();
  return 0;
}
