/* undeclared.c: an Oxford BSP toolset program in its own era's style, which calls level-1
 * operations without including bsp_level1.h (the toolset's bsp.h did not declare them; C89
 * declares such calls implicitly, and the toolset's bspcc linked the library that defines them).
 * Only operations that return int, as an implicit declaration says. Process 0 prints one line per
 * group; a wrong result prints FAILED with the operation. Built with -std=gnu89. */
#include "bsp.h"
#include <stdio.h>
#include <stdlib.h>

static int nprocs;

static void add(int *result, int *left, int *right, int *nbytes) {
  (void)nbytes;
  *result = *left + *right;
}

static void spmd(void) {
  int p, s, n, total, prefix, all, i;
  int *gathered;
  bsp_begin(nprocs);
  p = bsp_nprocs();
  s = bsp_pid();
  n = 0;
  bsp_push_reg(&n, sizeof(int));
  gathered = calloc(p, sizeof(int));
  bsp_push_reg(gathered, p * sizeof(int));
  bsp_sync();
  if (s == 0) n = 42;
  bsp_bcast(0, &n, &n, sizeof(int));
  bsp_gather(0, &s, gathered, sizeof(int));
  if (n != 42) printf("FAILED on process %d: bsp_bcast gave %d\n", s, n);
  if (s == 0)
    for (i = 0; i < p; i++)
      if (gathered[i] != i) printf("FAILED: bsp_gather put %d at %d\n", gathered[i], i);
  total = bsp_sumI(s + 1);
  prefix = bsp_maxI_prefix(s);
  all = bsp_all(n == 42);
  if (total != p * (p + 1) / 2) printf("FAILED on process %d: bsp_sumI gave %d\n", s, total);
  if (prefix != s) printf("FAILED on process %d: bsp_maxI_prefix gave %d\n", s, prefix);
  if (!all) printf("FAILED on process %d: bsp_all gave 0\n", s);
  n = s + 1;
  bsp_fold(add, &n, &total, sizeof(int));
  if (total != p * (p + 1) / 2) printf("FAILED on process %d: bsp_fold gave %d\n", s, total);
  if (s == 0) printf("bsp_bcast, bsp_gather, bsp_sumI, bsp_maxI_prefix, bsp_all, bsp_fold: ok\n");
  bsp_pop_reg(gathered);
  bsp_pop_reg(&n);
  bsp_sync();
  free(gathered);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%d", &nprocs) != 1 || nprocs < 1) return 1;
  spmd();
  return 0;
}
