/* bsp_sum.c: the paper's bsp_sum collective (section 3.3.2), which uses bsp_hpget.
 *
 * Process i calls bsp_sum with an array of nelem_i ints; every process gets the sum of all the
 * arrays of all the processes. The local partial sum `result` is registered, and in the next
 * superstep every process fetches every partial sum with an unbuffered bsp_hpget. That is safe
 * because nobody changes `result` during that superstep (see buggy/ring_hp_race.c for what
 * happens when somebody does).
 *
 * The program sums two different distributions, to use the registration twice:
 *   1. process s holds s+1 elements  10*s + j, j = 0..s
 *   2. process s holds 3 elements    s*s, -s, 1
 * Output, one line per process s:  bsp_sum: pid s local L1 L2 total T1 T2
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int bsp_sum(int *xs, int nelem) {
  int *local_sums, i, j, result = 0, p = bsp_nprocs();
  for (j = 0; j < nelem; j++) result += xs[j];
  bsp_push_reg(&result, sizeof(int));
  bsp_sync();

  local_sums = calloc((size_t)p, sizeof(int));
  if (local_sums == NULL) bsp_abort("{bsp_sum} no memory for %d int", p);
  for (i = 0; i < p; i++) bsp_hpget(i, &result, 0, &local_sums[i], sizeof(int));
  bsp_sync();

  result = 0;
  for (i = 0; i < p; i++) result += local_sums[i];
  bsp_pop_reg(&result);
  free(local_sums);
  return result;
}

static int local_sum(const int *xs, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) r += xs[i];
  return r;
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();

  int n1 = s + 1;
  int *a = malloc((size_t)n1 * sizeof(int));
  if (a == NULL) bsp_abort("bsp_sum: no memory");
  for (int j = 0; j < n1; j++) a[j] = 10 * s + j;
  int b[3] = {s * s, -s, 1};

  int t1 = bsp_sum(a, n1);
  int t2 = bsp_sum(b, 3);
  printf("bsp_sum: pid %d local %d %d total %d %d\n", s, local_sum(a, n1), local_sum(b, 3), t1,
         t2);
  free(a);
  bsp_end();
  return 0;
}
