/* bench.c: a BSP benchmark in the style of BSPedupack 2.0 (MulticoreBSP for C)'s bspbench: the computing rate r from
 * DAXPY loops, then h-relations of single-word puts, from which g and l are fitted. The timing
 * lines depend on the clock; every other line (each h-relation arrives whole) must not. */
#include "bspedupack.h"

#define NITERS 10 /* number of iterations */
#define MAXN 256  /* maximum length of DAXPY computation */
#define MAXH 16   /* maximum h in h-relation */

long P; /* number of processors requested */

void leastsquares(long h0, long h1, double *t, double *g, double *l) {
  /* Fits the times t[h] of h-relations, h0 <= h <= h1, to g*h + l by least squares. */
  double nh, sumt, sumth, sumh, sumhh, a;
  long h;

  nh = h1 - h0 + 1;
  sumt = sumth = 0.0;
  for (h = h0; h <= h1; h++) {
    sumt += t[h];
    sumth += t[h] * h;
  }
  sumh = (h1 * h1 - h0 * h0 + h1 + h0) / 2;
  sumhh = (h1 * (h1 + 1) * (2 * h1 + 1) - (h0 - 1) * h0 * (2 * h0 - 1)) / 6;
  if (fabs(nh) > fabs(sumh)) {
    a = sumh / nh;
    *g = (sumth - a * sumt) / (sumhh - a * sumh);
    *l = (sumt - sumh * *g) / nh;
  } else {
    a = nh / sumh;
    *g = (sumt - a * sumth) / (sumh - a * sumhh);
    *l = (sumth - sumhh * *g) / sumh;
  }
}

void bspbench(void) {
  long p, s, s1, i, iter, h, n, *destproc, *destindex, ok, *Ok, allok;
  double alpha, beta, time0, time1, time, r, g0, l0, g, l, t[MAXH + 1];
  double *x, *y, *z, *src, *dest, *Time, mintime, maxtime;

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();

  Time = vecallocd(p);
  bsp_push_reg(Time, p * SZDBL);
  Ok = vecalloci(p);
  bsp_push_reg(Ok, p * SZLONG);
  dest = vecallocd(p + MAXH);
  bsp_push_reg(dest, (p + MAXH) * SZDBL);
  bsp_sync();

  /* Determine the computing rate r with DAXPYs of growing length. */
  x = vecallocd(MAXN);
  y = vecallocd(MAXN);
  z = vecallocd(MAXN);
  r = 0.0;
  for (n = 1; n <= MAXN; n *= 2) {
    alpha = 1.0 / 3.0;
    beta = 4.0 / 9.0;
    for (i = 0; i < n; i++) z[i] = y[i] = x[i] = (double)i;
    time0 = bsp_time();
    for (iter = 0; iter < NITERS; iter++) {
      for (i = 0; i < n; i++) y[i] += alpha * x[i];
      for (i = 0; i < n; i++) z[i] -= beta * x[i];
    }
    time1 = bsp_time();
    time = time1 - time0;
    bsp_put(0, &time, Time, s * SZDBL, SZDBL);
    bsp_sync();
    if (s == 0) {
      mintime = maxtime = Time[0];
      for (s1 = 1; s1 < p; s1++) {
        mintime = MIN(mintime, Time[s1]);
        maxtime = MAX(maxtime, Time[s1]);
      }
      if (mintime > 0.0) r = MAX(r, 4.0 * n * NITERS / mintime);
    }
  }
  if (s == 0) printf("r= %.3lf Mflop/s\n", r / 1e6);

  /* h-relations: processor s sends its i-th word to processor (s+1+i) mod p, which keeps it at
     index s + (i/p)*p: no two words meet in one place. */
  destproc = vecalloci(MAXH);
  destindex = vecalloci(MAXH);
  src = vecallocd(MAXH);
  allok = true;
  for (h = 0; h <= MAXH; h++) {
    for (i = 0; i < h; i++) {
      src[i] = 1000.0 * s + i;
      destproc[i] = (s + 1 + i) % p;
      destindex[i] = s + (i / p) * p;
    }
    for (i = 0; i < p + MAXH; i++) dest[i] = -1.0;
    bsp_sync();
    time0 = bsp_time();
    for (iter = 0; iter < NITERS; iter++) {
      for (i = 0; i < h; i++) bsp_put(destproc[i], &src[i], dest, destindex[i] * SZDBL, SZDBL);
      bsp_sync();
    }
    time1 = bsp_time();
    t[h] = (time1 - time0) / NITERS;

    /* Every word sent to this processor must have arrived. */
    ok = true;
    for (s1 = 0; s1 < p; s1++)
      for (i = 0; i < h; i++)
        if ((s1 + 1 + i) % p == s && dest[s1 + (i / p) * p] != 1000.0 * s1 + i) ok = false;
    bsp_put(0, &ok, Ok, s * SZLONG, SZLONG);
    bsp_sync();
    if (s == 0) {
      for (s1 = 0; s1 < p; s1++)
        if (!Ok[s1]) allok = false;
      printf("%ld-relation %s\n", h, allok ? "delivered whole" : "LOST WORDS");
      printf("Time of %5ld-relation= %lf sec\n", h, t[h]);
    }
  }
  if (s == 0) {
    leastsquares(0, MAXH, t, &g0, &l0);
    g = g0 * r;
    l = l0 * r;
    printf("Range h=0 to p   : g= %.1lf, l= %.1lf flops\n", g, l);
    printf("The bottom line for this BSP computer is:\n");
    printf("p= %s, r= %.3lf Mflop/s, g= %.1lf, l= %.1lf\n", "all", r / 1e6, g, l);
  }
  bsp_pop_reg(dest);
  bsp_pop_reg(Ok);
  bsp_pop_reg(Time);
  vecfreed(src);
  vecfreei(destindex);
  vecfreei(destproc);
  vecfreed(z);
  vecfreed(y);
  vecfreed(x);
  vecfreed(dest);
  vecfreei(Ok);
  vecfreed(Time);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bspbench, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%ld", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bspbench();
  exit(0);
}
