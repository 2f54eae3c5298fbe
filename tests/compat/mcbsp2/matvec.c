/* matvec.c: sparse matrix-vector multiplication u = A v in the style of BSPedupack 2.0 (MulticoreBSP for C)'s
 * bspmv: the rows of the tridiagonal matrix A = tridiag(-1, 2, -1) are distributed cyclically,
 * the vectors v and u by blocks. Fanout: each processor gets the v components its rows need
 * (bsp_get); local multiplication; fanin: the row sums go to the owners of u as messages
 * (bsp_send with the global index as tag, bsp_qsize, bsp_get_tag with its size_t status,
 * bsp_move). With
 * v[j] = (j+1)^2 the answer is known: u = (-2, ..., -2, n^2 + 2n - 1). */
#include "bspedupack.h"

#define N 100

long P;

long blocksize(long p) { return (N + p - 1) / p; }

void bspmatvec(void) {
  long p, s, b, nrows, il, i, j, t, tag, ok, *Ok, allok;
  bsp_nprocs_t nmessages;
  bsp_size_t tagsize, nbytes, status;
  double *v, *vrow, *u, sum;

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  b = blocksize(p);
  nrows = (N + p - s - 1) / p; /* rows i = il*p + s */

  v = vecallocd(b); /* v[j] on processor j / b at j % b */
  u = vecallocd(b);
  vrow = vecallocd(3 * nrows); /* v[i-1], v[i], v[i+1] for each local row i */
  Ok = vecalloci(p);
  for (j = 0; j < b; j++) v[j] = s * b + j < N ? (double)(s * b + j + 1) * (s * b + j + 1) : 0.0;
  bsp_push_reg(v, b * SZDBL);
  bsp_push_reg(Ok, p * SZLONG);
  tagsize = SZLONG;
  bsp_set_tagsize(&tagsize);
  bsp_sync();

  /* Fanout */
  for (il = 0; il < nrows; il++) {
    i = il * p + s;
    for (t = -1; t <= 1; t++) {
      j = i + t;
      if (j >= 0 && j < N) bsp_get(j / b, v, (j % b) * SZDBL, &vrow[3 * il + t + 1], SZDBL);
      else vrow[3 * il + t + 1] = 0.0;
    }
  }
  bsp_sync();

  /* Local sums, fanin */
  for (il = 0; il < nrows; il++) {
    i = il * p + s;
    sum = 2.0 * vrow[3 * il + 1] - vrow[3 * il] - vrow[3 * il + 2];
    bsp_send(i / b, &i, &sum, SZDBL);
  }
  bsp_sync();

  bsp_qsize(&nmessages, &nbytes);
  if (nbytes != nmessages * SZDBL) bsp_abort("matvec: %u messages of %zu bytes", nmessages, nbytes);
  for (j = 0; j < (long)nmessages; j++) {
    bsp_get_tag(&status, &tag);
    if (status != SZDBL || tag / b != s) bsp_abort("matvec: message for row %ld of %zu bytes", tag, status);
    bsp_move(&u[tag % b], SZDBL);
  }
  ok = true;
  for (j = 0; j < b && s * b + j < N; j++) {
    i = s * b + j;
    if (u[j] != (i == N - 1 ? (double)N * N + 2 * N - 1 : -2.0)) ok = false;
  }
  bsp_put(0, &ok, Ok, s * SZLONG, SZLONG);
  bsp_sync();
  if (s == 0) {
    allok = true;
    for (t = 0; t < p; t++) allok = allok && Ok[t];
    printf("u = A v for the %d by %d second-difference matrix: %s\n", N, N, allok ? "correct" : "WRONG");
  }
  bsp_pop_reg(Ok);
  bsp_pop_reg(v);
  bsp_sync();
  vecfreei(Ok);
  vecfreed(vrow);
  vecfreed(u);
  vecfreed(v);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bspmatvec, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%ld", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bspmatvec();
  exit(0);
}
