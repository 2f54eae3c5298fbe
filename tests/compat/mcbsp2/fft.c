/* fft.c: a parallel FFT in the style of BSPedupack 2.0 (MulticoreBSP for C)'s bspfft: the vector is distributed
 * cyclically, each processor transforms its own subsequence, multiplies by twiddle factors and
 * one redistribution (puts) brings every frequency's p terms together. p must be a power of 2
 * (a request of another P uses the largest power of 2 below it), n a power of 2 with n >= p*p.
 * The input holds two frequencies, so that the exact transform is known. */
#include "bspedupack.h"

#define N 256
#define F1 3 /* the input is exp(2 pi i F1 j/N) + 0.5 exp(2 pi i F2 j/N) */
#define F2 37

long P;

void ufft(double *x, long n) {
  /* In-place iterative radix-2 FFT of n complex numbers x[2j] + i x[2j+1], sign -1 in the
     exponent, as BSPedupack's local ufft. */
  long j, k, m, half;
  for (j = 1, k = 0; j < n; j++) { /* bit reversal */
    long bit = n >> 1;
    for (; k & bit; bit >>= 1) k ^= bit;
    k ^= bit;
    if (j < k) {
      double tr = x[2 * j], ti = x[2 * j + 1];
      x[2 * j] = x[2 * k];
      x[2 * j + 1] = x[2 * k + 1];
      x[2 * k] = tr;
      x[2 * k + 1] = ti;
    }
  }
  for (m = 2; m <= n; m *= 2) {
    half = m / 2;
    for (k = 0; k < half; k++) {
      double wr = cos(-2.0 * M_PI * k / m), wi = sin(-2.0 * M_PI * k / m);
      for (j = k; j < n; j += m) {
        double ar = x[2 * (j + half)], ai = x[2 * (j + half) + 1];
        double tr = wr * ar - wi * ai, ti = wr * ai + wi * ar;
        x[2 * (j + half)] = x[2 * j] - tr;
        x[2 * (j + half) + 1] = x[2 * j + 1] - ti;
        x[2 * j] += tr;
        x[2 * j + 1] += ti;
      }
    }
  }
}

void bspfft_test(void) {
  long p, s, m, b, j, k, t, q;
  double *x, *z, *X, err, *Err;

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  m = N / p; /* local length: x[s + p*j], j < m, on processor s */
  b = m / p; /* frequencies k = q*b .. q*b+b-1 (and k + m*t) end on processor q */

  x = vecallocd(2 * m);
  z = vecallocd(2 * p * b); /* z[t][k]: processor t's twiddled term for my frequencies */
  X = vecallocd(2 * N / p);
  Err = vecallocd(p);
  bsp_push_reg(z, 2 * p * b * SZDBL);
  bsp_push_reg(Err, p * SZDBL);
  bsp_sync();

  for (j = 0; j < m; j++) {
    long jg = s + p * j;
    x[2 * j] = cos(2 * M_PI * F1 * jg / N) + 0.5 * cos(2 * M_PI * F2 * jg / N);
    x[2 * j + 1] = sin(2 * M_PI * F1 * jg / N) + 0.5 * sin(2 * M_PI * F2 * jg / N);
  }

  /* Local transform of the subsequence, then the twiddle exp(-2 pi i s k / N). */
  ufft(x, m);
  for (k = 0; k < m; k++) {
    double wr = cos(-2.0 * M_PI * s * k / N), wi = sin(-2.0 * M_PI * s * k / N);
    double re = x[2 * k], im = x[2 * k + 1];
    x[2 * k] = wr * re - wi * im;
    x[2 * k + 1] = wr * im + wi * re;
  }
  /* Redistribution: frequency block q goes to processor q. */
  for (q = 0; q < p; q++) bsp_put(q, &x[2 * q * b], z, 2 * s * b * SZDBL, 2 * b * SZDBL);
  bsp_sync();

  /* p-point transforms across the processors' terms: X[k + m t] = sum_t' z[t'][k] w_p^(t' t). */
  err = 0.0;
  for (k = 0; k < b; k++)
    for (t = 0; t < p; t++) {
      double re = 0.0, im = 0.0, exact;
      long kg = s * b + k + m * t, u;
      for (u = 0; u < p; u++) {
        double wr = cos(-2.0 * M_PI * u * t / p), wi = sin(-2.0 * M_PI * u * t / p);
        re += wr * z[2 * (u * b + k)] - wi * z[2 * (u * b + k) + 1];
        im += wr * z[2 * (u * b + k) + 1] + wi * z[2 * (u * b + k)];
      }
      X[2 * (k * p + t)] = re;
      X[2 * (k * p + t) + 1] = im;
      exact = kg == F1 ? N : kg == F2 ? 0.5 * N : 0.0;
      err = MAX(err, fabs(re - exact) + fabs(im));
    }
  bsp_put(0, &err, Err, s * SZDBL, SZDBL);
  bsp_sync();
  if (s == 0) {
    for (t = 1; t < p; t++) err = MAX(err, Err[t]);
    printf("FFT of length %d: peaks at frequencies %d and %d\n", N, F1, F2);
    printf("max error %s 1e-9\n", err < 1e-9 ? "<" : ">=");
  }
  bsp_pop_reg(Err);
  bsp_pop_reg(z);
  bsp_sync();
  vecfreed(Err);
  vecfreed(X);
  vecfreed(z);
  vecfreed(x);
  bsp_end();
}

int main(int argc, char **argv) {
  long pow2;
  bsp_init(bspfft_test, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%ld", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  for (pow2 = 1; 2 * pow2 <= P; pow2 *= 2) {
  }
  P = pow2;
  bspfft_test();
  exit(0);
}
