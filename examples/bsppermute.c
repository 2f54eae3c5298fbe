/* bsppermute.c: the permutation step of the BSP radix-2 FFT (paper section 5.2).
 *
 * A complex vector x of length n is distributed by blocks, n_over_p = n/p elements per process.
 * bsppermute moves the element with local index j on process s to global position
 * sigma = j*p + s, with one bsp_put per element straight into x itself: bsp_put is buffered on
 * source and destination, so no temporary array is needed. x is registered once, outside the
 * function, and the permutation is applied twice.
 *
 * Usage: bsppermute [n_over_p]   (default 2p, so that p <= sqrt(n) as the FFT needs)
 * Element with global index g starts as g - g*i. Output per process s, for round r = 0 (the
 * input), 1 and 2:  permute: pid s round r v v v ...   (v = the real parts, as integers)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

typedef struct {
  double re, im;
} complex_t;

static void bsppermute(complex_t *x, int n) {
  /* This function permutes the vector x of length n, where x is distributed by the block
     distribution. It is assumed that x has already been registered. */
  int j, sigma, dst_pid, dst_idx, p = bsp_nprocs(), n_over_p = n / p;

  for (j = 0; j < n_over_p; j++) {
    sigma = j * p + bsp_pid();
    dst_pid = sigma / n_over_p;
    dst_idx = sigma % n_over_p;
    bsp_put(dst_pid, &x[j], x, dst_idx * (int)sizeof(complex_t), sizeof(complex_t));
  }
  bsp_sync();
}

static void print_round(int s, int round, const complex_t *x, int m) {
  printf("permute: pid %d round %d", s, round);
  for (int j = 0; j < m; j++) {
    if (x[j].im != -x[j].re)
      bsp_abort("permute: pid %d x[%d] = %g%+gi is torn", s, j, x[j].re, x[j].im);
    printf(" %.0f", x[j].re);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int n_over_p = argc > 1 ? atoi(argv[1]) : 2 * p;
  if (n_over_p < 1) bsp_abort("permute: n_over_p must be positive, got %d", n_over_p);
  int n = n_over_p * p;

  complex_t *x = malloc((size_t)n_over_p * sizeof(complex_t));
  if (x == NULL) bsp_abort("permute: no memory");
  for (int j = 0; j < n_over_p; j++) {
    double g = (double)(s * n_over_p + j);
    x[j].re = g;
    x[j].im = -g;
  }
  bsp_push_reg(x, n_over_p * (int)sizeof(complex_t));
  bsp_sync();

  print_round(s, 0, x, n_over_p);
  for (int round = 1; round <= 2; round++) {
    bsppermute(x, n);
    print_round(s, round, x, n_over_p);
  }

  bsp_pop_reg(x);
  bsp_sync();
  free(x);
  bsp_end();
  return 0;
}
