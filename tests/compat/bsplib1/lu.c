/* lu.c: LU decomposition with partial row pivoting, rows distributed cyclically (BSPedupack 1.x
 * style: bsp_begin(P) with P read from standard input, puts of pivot candidates, row swaps and
 * the pivot row, registrations of whole matrices). Processor 0 gathers L and U and checks
 * PA = LU. */
#include "bspedupack.h"

#define N 40

int P;

double aval(int i, int j) {
  /* A matrix that needs pivoting: its largest entries lie on the anti-diagonal. */
  return (double)((7 * i + 13 * j) % 17) + (i + j == N - 1 ? 40.0 : 0.0);
}

void bsplu(void) {
  int p, s, nlr, i, j, k, r, il, t, *pi;
  double *a, *Max, *pivrow, *full, best, err, sum;

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  nlr = (N + p - s - 1) / p; /* local rows: global row i lives on i mod p at i div p */

  a = vecallocd(nlr * N);
  Max = vecallocd(2 * p);
  pivrow = vecallocd(N);
  /* Only processor 0 holds the gathered matrix; the others register a 0-byte dummy, so that
     their puts can name the registration by their own (non-NULL) address. */
  full = vecallocd(s == 0 ? N * N : 1);
  pi = vecalloci(N);
  for (il = 0; il < nlr; il++)
    for (j = 0; j < N; j++) a[il * N + j] = aval(il * p + s, j);
  bsp_push_reg(a, nlr * N * SZDBL);
  bsp_push_reg(Max, 2 * p * SZDBL);
  bsp_push_reg(pivrow, N * SZDBL);
  bsp_push_reg(full, s == 0 ? N * N * SZDBL : 0);
  bsp_sync();

  for (k = 0; k < N; k++) {
    /* Superstep 1: every processor offers its largest candidate in column k. */
    double cand[2] = {-1.0, -1.0};
    for (il = 0; il < nlr; il++) {
      i = il * p + s;
      if (i >= k && fabs(a[il * N + k]) > cand[0]) {
        cand[0] = fabs(a[il * N + k]);
        cand[1] = i;
      }
    }
    for (t = 0; t < p; t++) bsp_put(t, cand, Max, 2 * s * SZDBL, 2 * SZDBL);
    bsp_sync();

    /* Superstep 2: all agree on the pivot row r (the smallest index among equal maxima); rows k
       and r change places and row r, the new row k, goes to everyone. */
    best = -1.0;
    r = -1;
    for (t = 0; t < p; t++)
      if (Max[2 * t] > best || (Max[2 * t] == best && Max[2 * t + 1] < r)) {
        best = Max[2 * t];
        r = (int)Max[2 * t + 1];
      }
    if (best == 0.0) bsp_abort("lu: the matrix is singular at column %d", k);
    pi[k] = r;
    if (r % p == s) {
      bsp_put(k % p, &a[(r / p) * N], a, (k / p) * N * SZDBL, N * SZDBL);
      for (t = 0; t < p; t++) bsp_put(t, &a[(r / p) * N], pivrow, 0, N * SZDBL);
    }
    if (k % p == s && r != k) bsp_put(r % p, &a[(k / p) * N], a, (r / p) * N * SZDBL, N * SZDBL);
    bsp_sync();

    /* Local computation: eliminate column k below the pivot. */
    for (il = 0; il < nlr; il++) {
      i = il * p + s;
      if (i > k) {
        double l = a[il * N + k] / pivrow[k];
        a[il * N + k] = l;
        for (j = k + 1; j < N; j++) a[il * N + j] -= l * pivrow[j];
      }
    }
  }

  /* Processor 0 gathers L\U and checks it against A with the rows swapped as recorded. */
  for (il = 0; il < nlr; il++) bsp_put(0, &a[il * N], full, (il * p + s) * N * SZDBL, N * SZDBL);
  bsp_sync();
  if (s == 0) {
    double *pa = vecallocd(N * N);
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) pa[i * N + j] = aval(i, j);
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++) {
        double tmp = pa[k * N + j];
        pa[k * N + j] = pa[pi[k] * N + j];
        pa[pi[k] * N + j] = tmp;
      }
    err = 0.0;
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) {
        sum = 0.0;
        for (k = 0; k <= MIN(i, j); k++) sum += (k == i ? 1.0 : full[i * N + k]) * full[k * N + j];
        err = MAX(err, fabs(sum - pa[i * N + j]));
      }
    printf("LU decomposition of a %d by %d matrix\n", N, N);
    printf("Pivots of the first 8 columns:");
    for (k = 0; k < 8; k++) printf(" %d", pi[k]);
    printf("\nmax |PA - LU| %s 1e-9\n", err < 1e-9 ? "<" : ">=");
    vecfreed(pa);
  }
  bsp_pop_reg(full);
  bsp_pop_reg(pivrow);
  bsp_pop_reg(Max);
  bsp_pop_reg(a);
  bsp_sync();
  vecfreei(pi);
  vecfreed(full);
  vecfreed(pivrow);
  vecfreed(Max);
  vecfreed(a);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bsplu, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%d", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bsplu();
  exit(0);
}
