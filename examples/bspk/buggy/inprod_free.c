/* inprod_free.c: the buggy twin of inprod.c: each process frees its partial sum
 * right after the bspk_copy that stores it, in the same superstep: the store reads its source at
 * the sync, and the paper frees memory used in a communication "not before the subsequent
 * bspk_sync" (bspk-use-after-free).
 *
 * inprod.c: the inner product of two distributed vectors in BSPk, with communicable memory and
 * lazy barriers (shared/seeds/001).
 *
 * Superstep 0: every process allocates its slices of x and y as comem regions, and process 0 a
 * named region "sums" with one element per process; the others look it up in the same superstep
 * (the paper's Figure 6 does so: the allocation is complete at the end of the superstep). The
 * sync is a barrier (no announcement).
 * Superstep 1: each process stores its partial sum into element bsp_pid() of "sums" with
 * bspk_copy. Process 0 announces the p - 1 stores it receives (bspk_expect), the others none:
 * a lazy barrier, so no process waits for any other but process 0 for the stores.
 * Superstep 2: process 0 sends the total to every other process (bspk_send), each of which
 * expects one message and receives it (bspk_recv) in superstep 3. */
#include <stdio.h>

#include "bsp.h"
#include "bspk.h"

#define N 1000

static double *elem(bspk_ptr p, long i) { return (double *)bspk_elemP(bspk_incr(p, i)); }

int main(void) {
  bsp_begin(bsp_nprocs());
  int me = bsp_pid(), p = bsp_nprocs();
  long lo = (long)N * me / p, hi = (long)N * (me + 1) / p, n = hi - lo;
  bspk_ptr x = bspk_malloc("", 0, n, sizeof(double));
  bspk_ptr y = bspk_malloc("", 0, n, sizeof(double));
  for (long i = 0; i < n; ++i) {
    *elem(x, i) = (double)(lo + i);
    *elem(y, i) = 2.0;
  }
  bspk_ptr sums = NULL_COMEM_PTR;
  if (me == 0) sums = bspk_malloc("sums", 0, p, sizeof(double));
  bspk_ptr target = bspk_lookup("sums", 0);
  bspk_sync();

  double dot = 0;
  for (long i = 0; i < n; ++i) dot += *elem(x, i) * *elem(y, i);
  bspk_ptr mine = bspk_malloc("", 0, 1, sizeof(double));
  *elem(mine, 0) = dot;
  bspk_expect(me == 0 ? p - 1 : 0);
  bspk_copy(bspk_incr(target, me), mine, 1);
  bspk_free(mine); /* BUG: bspk-use-after-free @ superstep 1, process 0 */
  bspk_sync();

  bspk_ptr total = bspk_malloc("", 0, 1, sizeof(double));
  if (me == 0) {
    double t = 0;
    for (int q = 0; q < p; ++q) t += *elem(sums, q);
    *elem(total, 0) = t;
    for (int q = 1; q < p; ++q) bspk_send(q, total, 1);
  }
  bspk_expect(me == 0 ? 0 : 1);
  bspk_sync();

  double result = *elem(total, 0);
  if (me != 0) {
    bspk_ptr msg = bspk_recv();
    if (bspk_is_null(msg) || bspk_sender_id(msg) != 0) bsp_abort("inprod: process %d got no total\n", me);
    result = *elem(msg, 0);
    bspk_free(msg);
  }
  const double expected = (double)N * (N - 1); /* sum of 2i for i < N */
  if (result != expected) bsp_abort("inprod: process %d has %.1f, not %.1f\n", me, result, expected);
  if (me == 0) printf("inprod: %d processes, x.y = %.1f\n", p, result);
  bspk_free(total);
  bspk_free(x);
  bspk_free(y);
  bsp_end();
  return 0;
}
