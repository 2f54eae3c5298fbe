/* halo.c: a ghost cell refreshed by fetches in BSPk (shared/seeds/001), in the pattern the paper
 * prescribes: "fetch operations whose results are needed in a superstep i, must be issued in
 * superstep i - 1".
 *
 * Every process owns one value (the comem region "val", index pid) and keeps a copy of its left
 * neighbour's in a local ghost region. In superstep t it sets its value to 100 t + pid, computes
 * with the ghost (the neighbour's value of superstep t - 1, fetched in t - 1), and issues the fetch
 * of the neighbour's value of superstep t into the same ghost, reading the ghost again after the
 * fetch: BSPk makes a copy "visible only in the next superstep", and the programmer "can write code
 * as if there is no concurrency during each superstep", so both reads see the old value. Reading a
 * fetch's destination before the sync is therefore no error (docs/bspk.md); the program aborts if
 * either read sees anything else. */
#include "bsp.h"
#include "bspk.h"

#define STEPS 4

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs(), left = (me + p - 1) % p;
  bspk_ptr val = bspk_malloc("val", me, 1, sizeof(int));
  bspk_ptr ghost = bspk_malloc("", 0, 1, sizeof(int));
  bspk_ptr neighbour = bspk_lookup("val", left);
  int *v = (int *)bspk_elemP(val), *g = (int *)bspk_elemP(ghost);
  *g = -1;
  for (int t = 0; t < STEPS; ++t) {
    *v = 100 * t + me;
    const int old = t == 0 ? -1 : 100 * (t - 1) + left;
    if (*g != old) bsp_abort("halo: process %d superstep %d: ghost %d, not %d\n", me, t, *g, old);
    bspk_copy(ghost, neighbour, 1); /* lands at the sync: visible in superstep t + 1 */
    if (*g != old) bsp_abort("halo: process %d superstep %d: the fetch landed before the sync\n", me, t);
    bspk_sync();
  }
  if (*g != 100 * (STEPS - 1) + left) bsp_abort("halo: process %d: last ghost %d\n", me, *g);
  bspk_free(ghost);
  bspk_free(val);
  bsp_end();
  return 0;
}
