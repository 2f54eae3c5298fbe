/* inprod.c: parallel inner product of a vector with itself, cyclic distribution (BSPedupack 2.0 (MulticoreBSP for C)
 * style: bsp_init, P read from standard input, long sizes, one put per process pair). */
#include "bspedupack.h"

long P; /* number of processors requested */

long nloc(long p, long s, long n) {
  /* Number of local components of processor s for vector of length n distributed cyclically
     over p processors. */
  return (n + p - s - 1) / p;
}

double bspip(long p, long s, long n, double *x, double *y) {
  double inprod, *Inprod, alpha;
  long i, t;

  Inprod = vecallocd(p);
  bsp_push_reg(Inprod, p * SZDBL);
  bsp_sync();

  inprod = 0.0;
  for (i = 0; i < nloc(p, s, n); i++) inprod += x[i] * y[i];
  for (t = 0; t < p; t++) bsp_put(t, &inprod, Inprod, s * SZDBL, SZDBL);
  bsp_sync();

  alpha = 0.0;
  for (t = 0; t < p; t++) alpha += Inprod[t];
  bsp_pop_reg(Inprod);
  vecfreed(Inprod);
  return alpha;
}

void bspinprod(void) {
  double *x, alpha, time0, time1;
  long p, s, n, nl, i, iglob;

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  n = 1000; /* the master decides, every processor knows */

  nl = nloc(p, s, n);
  x = vecallocd(nl);
  for (i = 0; i < nl; i++) {
    iglob = i * p + s;
    x[i] = iglob + 1;
  }
  bsp_sync();
  time0 = bsp_time();

  alpha = bspip(p, s, n, x, x);
  bsp_sync();
  time1 = bsp_time();

  if (alpha != (double)n * (n + 1) * (2 * n + 1) / 6) bsp_abort("processor %ld: wrong inner product %f", s, alpha);
  if (s == 0) {
    printf("Sum of squares 1..%ld computed in parallel: %.0f\n", n, alpha);
    printf("This took only %.6lf seconds.\n", time1 - time0);
  }
  vecfreed(x);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bspinprod, argc, argv);

  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%ld", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bspinprod();
  exit(0);
}
