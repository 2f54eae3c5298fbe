/* gauss_count.c: the buggy twin of gauss.c: the owner of the pivot row counts a message it never
 * receives (it does not send to itself), so it hangs in step 0 (cbsp-count-excess).
 *
 * gauss.c: Gaussian elimination with counting synchronisation, as the paper's "gauss" (section
 * 6.2.1): the rows of an N x N system are distributed cyclically, and in step k the owner of row k
 * sends it to every other process. Each receiver knows it gets exactly one message per step, so
 * every step ends with cBSP_nsync(1) (the owner: cBSP_nsync(0)) instead of a global barrier, and
 * a fast process may run steps ahead of a slow one. N steps plus a final gather: N + 1 supersteps,
 * as the paper's 1025 for 1024 equations.
 *
 * The matrix is diagonally dominant (no pivoting needed), and the right-hand side is chosen so
 * that the solution is x_i = i + 1; process 0 gathers the reduced rows, back-substitutes and
 * checks the solution. */
#include <math.h>
#include <stdio.h>

#include "bsp.h"
#include "cbsp.h"

#define N 24

static double a[N][N + 1]; /* row i (with b_i in column N), on its owner i % p */
static double pivot[N + 1];  /* the row of the current step, received from its owner */

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  for (int i = me; i < N; i += p) {
    double b = 0;
    for (int j = 0; j < N; ++j) {
      a[i][j] = (i == j) ? 2.0 * N : 1.0 / (1 + i + 2 * j);
      b += a[i][j] * (j + 1);
    }
    a[i][N] = b;
  }

  for (int k = 0; k < N; ++k) {
    int owner = k % p;
    if (me == owner)
      for (int q = 0; q < p; ++q)
        if (q != me) cBSP_send(q, pivot, a[k], sizeof pivot, NULL);
    cBSP_nsync(1); /* BUG: cbsp-count-excess @ superstep 0, process 0 */
    const double *row = me == owner ? a[k] : pivot;
    for (int i = me; i < N; i += p) {
      if (i <= k) continue;
      double f = a[i][k] / row[k];
      for (int j = k; j <= N; ++j) a[i][j] -= f * row[j];
    }
  }

  /* Gather the upper-triangular rows on process 0 (a global superstep). */
  if (me != 0)
    for (int i = me; i < N; i += p) cBSP_send(0, a[i], a[i], sizeof a[i], NULL);
  cBSP_gsync();

  if (me == 0) {
    double x[N], err = 0;
    for (int i = N - 1; i >= 0; --i) {
      double s = a[i][N];
      for (int j = i + 1; j < N; ++j) s -= a[i][j] * x[j];
      x[i] = s / a[i][i];
      err = fmax(err, fabs(x[i] - (i + 1)));
    }
    printf("gauss: N=%d on %d processes, max error %s\n", N, p, err < 1e-9 ? "< 1e-9" : "TOO LARGE");
    if (err >= 1e-9) bsp_abort("gauss: wrong solution (error %g)\n", err);
  }
  bsp_end();
  return 0;
}
