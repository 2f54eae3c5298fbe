/* bspedupack.h: the helpers of a BSPedupack 1.x style program (memory allocation, the BSPlib
 * header), written for bsp-check's compatibility tests in the style of Bisseling's book. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

#define SZDBL (sizeof(double))
#define SZINT (sizeof(int))
#define TRUE (1)
#define FALSE (0)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static inline double *vecallocd(int n) {
  double *pd = n == 0 ? NULL : (double *)malloc(n * SZDBL);
  if (n > 0 && pd == NULL) bsp_abort("vecallocd: not enough memory");
  return pd;
}

static inline int *vecalloci(int n) {
  int *pi = n == 0 ? NULL : (int *)malloc(n * SZINT);
  if (n > 0 && pi == NULL) bsp_abort("vecalloci: not enough memory");
  return pi;
}

static inline void vecfreed(double *pd) { free(pd); }
static inline void vecfreei(int *pi) { free(pi); }
