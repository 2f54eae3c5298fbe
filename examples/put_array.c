/* put_array.c: the paper's put_array procedure (section 3.2.3).
 *
 * A global array xs of n = p * n_over_p ints is distributed by blocks. put_array performs the
 * concurrent assignment  xs[xs[i]] := xs[i]  for all i, with one bsp_put per element and the
 * offset parameter selecting the destination index. Here xs starts as a permutation of 0..n-1,
 * so afterwards xs[g] == g for every global index g, whatever the order of the puts.
 *
 * Usage: put_array [n_over_p]   (default 4)
 * Output, per process s:
 *   put_array: pid s before v v v ...
 *   put_array: pid s after  v v v ...
 * The initial permutation is pi(g) = (a*g + 3) mod n, a the smallest odd a >= 3 coprime to n.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static void put_array(int *xs, int n) {
  int i, dst_pid, dst_idx, p = bsp_nprocs(), n_over_p = n / p;
  if ((n % p) != 0) bsp_abort("{put_array} n=%d not divisible by p=%d", n, p);
  bsp_push_reg(xs, n_over_p * (int)sizeof(int));
  bsp_sync();

  for (i = 0; i < n_over_p; i++) {
    dst_pid = xs[i] / n_over_p;
    dst_idx = xs[i] % n_over_p;
    bsp_put(dst_pid, &xs[i], xs, dst_idx * (int)sizeof(int), sizeof(int));
  }
  bsp_sync();
  bsp_pop_reg(xs);
}

static int gcd(int a, int b) {
  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static void print_block(const char *what, int s, const int *xs, int m) {
  printf("put_array: pid %d %s", s, what);
  for (int i = 0; i < m; i++) printf(" %d", xs[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int n_over_p = argc > 1 ? atoi(argv[1]) : 4;
  if (n_over_p < 1) bsp_abort("put_array: n_over_p must be positive, got %d", n_over_p);
  int n = p * n_over_p;
  int a = 3;
  while (gcd(a, n) != 1) a += 2;

  int *xs = malloc((size_t)n_over_p * sizeof(int));
  if (xs == NULL) bsp_abort("put_array: no memory");
  for (int i = 0; i < n_over_p; i++) {
    long g = (long)s * n_over_p + i;
    xs[i] = (int)((a * g + 3) % n);
  }
  print_block("before", s, xs, n_over_p);
  put_array(xs, n);
  print_block("after", s, xs, n_over_p);
  for (int i = 0; i < n_over_p; i++)
    if (xs[i] != s * n_over_p + i)
      bsp_abort("put_array: pid %d xs[%d] = %d, expected %d", s, i, xs[i], s * n_over_p + i);
  free(xs);
  bsp_end();
  return 0;
}
