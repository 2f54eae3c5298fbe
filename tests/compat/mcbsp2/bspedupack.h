/* bspedupack.h: the helpers of a BSPedupack 2.0 style program, which is written against
 * MulticoreBSP for C (long integers, size_t sizes, bool), for bsp-check's compatibility tests;
 * built with bspcc --dialect=mcbsp. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <bsp.h>

#define SZDBL (sizeof(double))
#define SZLONG (sizeof(long))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static inline double *vecallocd(size_t n) {
  /* This function allocates a vector of doubles of length n */
  double *pd = n == 0 ? NULL : (double *)malloc(n * SZDBL);
  if (n > 0 && pd == NULL) bsp_abort("vecallocd: not enough memory");
  return pd;
}

static inline long *vecalloci(size_t n) {
  /* This function allocates a vector of longs of length n */
  long *pi = n == 0 ? NULL : (long *)malloc(n * SZLONG);
  if (n > 0 && pi == NULL) bsp_abort("vecalloci: not enough memory");
  return pi;
}

static inline void vecfreed(double *pd) { free(pd); }
static inline void vecfreei(long *pi) { free(pi); }
