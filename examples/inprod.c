/* inprod.c: a distributed inner product in the style of BSPedupack's bspinprod, in the bsp_init
 * style of starting processes.
 *
 * main (process 0 alone) reads the number of processes P from standard input (0 means every
 * available processor), then calls the SPMD part. In the SPMD part process 0 reads the vector
 * length n, and every process fetches it from process 0 with bsp_get. The vector x with
 * x_i = i (i = 1..n) is distributed cyclically: global index i-1 lives on process (i-1) mod p.
 * Each process computes its local part of x.x, puts it into every process, and every process sums
 * the p parts, so all of them end up with sum_{i=1..n} i^2 = n(n+1)(2n+1)/6.
 *
 * Input:  P n     e.g.  echo "0 1000" | bsp-check run -p 4 ./inprod
 * Output: one line per process s
 *   inprod: pid s of p n N nlocal L local A total T
 * then from process 0
 *   inprod: n N exact E match yes
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bsp.h"

/* Set by process 0 before bsp_begin and only read afterwards. */
static int P;

/* The number of vector components of process s in the cyclic distribution. */
static int nloc(int p, int s, int n) { return (n + p - s - 1) / p; }

static double *vecalloc(int n) {
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  if (v == NULL) bsp_abort("vecalloc: not enough memory for %d doubles", n);
  return v;
}

/* The inner product of distributed vectors x and y, with nl local components each. */
static double bspip(int p, int s, int nl, const double *x, const double *y, double *local) {
  double *inprod = vecalloc(p);
  bsp_push_reg(inprod, p * (int)sizeof(double));
  bsp_sync();

  double inprod_local = 0.0;
  for (int i = 0; i < nl; i++) inprod_local += x[i] * y[i];
  for (int t = 0; t < p; t++)
    bsp_put(t, &inprod_local, inprod, s * (int)sizeof(double), sizeof(double));
  bsp_sync();

  double alpha = 0.0;
  for (int t = 0; t < p; t++) alpha += inprod[t];
  bsp_pop_reg(inprod);
  free(inprod);
  *local = inprod_local;
  return alpha;
}

static void bspinprod(void) {
  bsp_begin(P);
  int p = bsp_nprocs(), s = bsp_pid();
  double time0 = bsp_time();

  int n = 0;
  bsp_push_reg(&n, sizeof(int));
  bsp_sync();

  if (s == 0) {
    if (isatty(0)) printf("Please enter n:\n");
    if (scanf("%d", &n) != 1) bsp_abort("inprod: could not read n from standard input");
    if (n < 0) bsp_abort("inprod: n = %d is negative", n);
  }
  bsp_get(0, &n, 0, &n, sizeof(int));
  bsp_sync();
  bsp_pop_reg(&n);

  int nl = nloc(p, s, n);
  double *x = vecalloc(nl);
  for (int i = 0; i < nl; i++) x[i] = (double)(i * p + s + 1);

  double local;
  double alpha = bspip(p, s, nl, x, x, &local);
  bsp_sync();
  /* Timings are not printed (they are not reproducible on a real machine), only sanity-checked:
   * bsp_time is the time in seconds since bsp_begin, so it cannot go backwards. */
  double time1 = bsp_time();
  if (!(time0 >= 0.0 && time1 >= time0))
    bsp_abort("inprod: pid %d: bsp_time went from %g to %g", s, time0, time1);
  printf("inprod: pid %d of %d n %d nlocal %d local %.0f total %.0f\n", s, p, n, nl, local, alpha);
  if (s == 0) {
    double exact = (double)n * (n + 1.0) * (2.0 * n + 1.0) / 6.0;
    if (alpha != exact) bsp_abort("inprod: computed %.0f, exact %.0f", alpha, exact);
    printf("inprod: n %d exact %.0f match yes\n", n, exact);
  }
  free(x);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bspinprod, argc, argv);

  if (isatty(0)) printf("How many processors do you want to use?\n");
  if (scanf("%d", &P) != 1) {
    fprintf(stderr, "inprod: expected P and n on standard input\n");
    return 2;
  }
  if (P <= 0 || P > bsp_nprocs()) P = bsp_nprocs();

  bspinprod();
  return 0;
}
