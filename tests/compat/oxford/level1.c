/* level1.c: every operation of the Oxford BSP toolset's level-1 library (bsp_level1.h), called
 * the way the toolset's programs call it, with each result checked against its closed form for
 * the p it runs on. Process 0 prints one line per group of operations, the same for every p; a
 * wrong result prints FAILED with the operation, so the output then differs from the expected. */
#include "bsp.h"
#include "bsp_level1.h"
#include <stdlib.h>

static int nprocs;
static int failures;

/* Every value checked is exact in double (ints, and floats of a few bits), so == is right; the
 * arguments are evaluated once, each operation called once. */
static void check_eq(const char *what, double got, double want) {
  if (got != want) {
    printf("FAILED on process %d of %d: %s: got %g, want %g\n", bsp_pid(), bsp_nprocs(), what, got, want);
    fflush(stdout);
    ++failures;
  }
}

/* A number written in decimal digits with its scale: concatenating two is associative but not
 * commutative, so a fold or scan that combined out of process order would show it. */
struct digits {
  int value;
  int scale;
};

/* A typed operator, as the toolset's manual page writes them (bsp_fold takes void pointers). */
static void concat(struct digits *result, struct digits *left, struct digits *right, int *nbytes) {
  result->value = left->value * right->scale + right->value;
  result->scale = left->scale * right->scale;
  if (*nbytes != (int)sizeof(struct digits)) result->scale = -1;
}

/* 1, 12, 123, ...: the digits 1..k. */
static int digits_upto(int k) {
  int v = 0;
  for (int i = 1; i <= k; ++i) v = v * 10 + i;
  return v;
}

static int power10(int k) { return k == 0 ? 1 : 10 * power10(k - 1); }

static int factorial(int k) { return k <= 1 ? 1 : k * factorial(k - 1); }

static void spmd(void) {
  bsp_begin(nprocs);
  const int p = bsp_nprocs(), me = bsp_pid();

  /* bsp_bcast into a registered dst, from a separate src and from dst itself. */
  int block[4] = {0, 0, 0, 0}, mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = 10 * (i + 1) + me;
  bsp_push_reg(block, (int)sizeof block);
  bsp_sync();
  bsp_bcast(p - 1, mine, block, (int)sizeof block);
  for (int i = 0; i < 4; ++i) check_eq("bsp_bcast", block[i], 10 * (i + 1) + p - 1);
  if (me == 0) block[2] = 777;
  bsp_bcast(0, block, block, (int)sizeof block);
  check_eq("bsp_bcast from dst itself", block[2], 777);
  bsp_pop_reg(block);

  /* bsp_gather into a registered table of p ints on process 0, bsp_scatter back out of it. */
  int *table = calloc((size_t)p, sizeof(int));
  int value = me * me + 1, back = -1;
  bsp_push_reg(table, p * (int)sizeof(int));
  bsp_sync();
  bsp_gather(0, &value, table, (int)sizeof value);
  if (me == 0)
    for (int i = 0; i < p; ++i) {
      check_eq("bsp_gather", table[i], i * i + 1);
      table[i] = 100 + i;
    }
  bsp_scatter(0, table, &back, (int)sizeof back);
  check_eq("bsp_scatter", back, 100 + me);
  bsp_pop_reg(table);
  free(table);
  if (me == 0) printf("bsp_bcast, bsp_gather, bsp_scatter: ok\n");

  /* bsp_fold and bsp_scan, dst not registered, operator applied in process order. */
  struct digits d = {me + 1, 10}, folded = {0, 0}, scanned = {0, 0};
  bsp_fold(concat, &d, &folded, (int)sizeof d);
  check_eq("bsp_fold", folded.value, digits_upto(p));
  check_eq("bsp_fold's scale (and nbytes)", folded.scale, power10(p));
  bsp_scan(concat, &d, &scanned, (int)sizeof d);
  check_eq("bsp_scan", scanned.value, digits_upto(me + 1));
  check_eq("bsp_scan's scale (and nbytes)", scanned.scale, power10(me + 1));
  if (me == 0) printf("bsp_fold, bsp_scan: ok\n");

  /* bsp_all, bsp_any, bsp_constantI. */
  check_eq("bsp_all of true", bsp_all(me + 5), 1);
  check_eq("bsp_all with one false", bsp_all(me != p - 1), 0);
  check_eq("bsp_any with one true", bsp_any(me == p - 1), 1);
  check_eq("bsp_any of false", bsp_any(0), 0);
  check_eq("bsp_constantI of a constant", bsp_constantI(7), 1);
  check_eq("bsp_constantI of the pid", bsp_constantI(me), p == 1);
  if (me == 0) printf("bsp_all, bsp_any, bsp_constantI: ok\n");

  /* Sums, products, minima and maxima, whole and prefix; every value exact in float. */
  check_eq("bsp_sumI", bsp_sumI(me + 1), p * (p + 1) / 2);
  check_eq("bsp_sumR", bsp_sumR(0.5f), 0.5f * (float)p);
  check_eq("bsp_sumD", bsp_sumD(me + 0.25), p * (p - 1) / 2 + 0.25 * p);
  check_eq("bsp_sumI_prefix", bsp_sumI_prefix(me + 1), (me + 1) * (me + 2) / 2);
  check_eq("bsp_sumR_prefix", bsp_sumR_prefix(0.5f), 0.5f * (float)(me + 1));
  check_eq("bsp_sumD_prefix", bsp_sumD_prefix(me + 0.25), me * (me + 1) / 2 + 0.25 * (me + 1));
  check_eq("bsp_productI", bsp_productI(me + 1), factorial(p));
  check_eq("bsp_productR", bsp_productR(2.0f), (float)(1 << p));
  check_eq("bsp_productD", bsp_productD(me + 1.0), (double)factorial(p));
  check_eq("bsp_productI_prefix", bsp_productI_prefix(me + 1), factorial(me + 1));
  check_eq("bsp_productR_prefix", bsp_productR_prefix(2.0f), (float)(1 << (me + 1)));
  check_eq("bsp_productD_prefix", bsp_productD_prefix(me + 1.0), (double)factorial(me + 1));
  check_eq("bsp_minI", bsp_minI(10 - me), 10 - (p - 1));
  check_eq("bsp_minR", bsp_minR((float)me - 0.5f), -0.5f);
  check_eq("bsp_minD", bsp_minD(-me * 1.5), -(p - 1) * 1.5);
  check_eq("bsp_maxI", bsp_maxI(me * 3), (p - 1) * 3);
  check_eq("bsp_maxR", bsp_maxR(-(float)me), 0.0f);
  check_eq("bsp_maxD", bsp_maxD(me * 1.5), (p - 1) * 1.5);
  check_eq("bsp_minI_prefix", bsp_minI_prefix(10 - me), 10 - me);
  check_eq("bsp_minR_prefix", bsp_minR_prefix((float)me), 0.0f);
  check_eq("bsp_minD_prefix", bsp_minD_prefix(-me * 1.5), -me * 1.5);
  check_eq("bsp_maxI_prefix", bsp_maxI_prefix(me % 2), me >= 1);
  check_eq("bsp_maxR_prefix", bsp_maxR_prefix(-(float)me), 0.0f);
  check_eq("bsp_maxD_prefix", bsp_maxD_prefix(me * 1.5), me * 1.5);
  if (me == 0) printf("bsp_sum, bsp_product, bsp_min, bsp_max (I, R, D, and _prefix): ok\n");

  /* The sorts: the values in reverse order of the pids, with ties (I), negative (R), fractional
   * (D) and characters (C); process i gets the i-th smallest. */
  check_eq("bsp_sortI", bsp_sortI((p - 1 - me) / 2), me / 2);
  check_eq("bsp_sortR", bsp_sortR(-(float)me), -(float)(p - 1 - me));
  check_eq("bsp_sortD", bsp_sortD((p - me) * 0.5), (me + 1) * 0.5);
  check_eq("bsp_sortC", bsp_sortC((char)('a' + p - 1 - me)), (char)('a' + me));
  if (me == 0) printf("bsp_sortI, bsp_sortR, bsp_sortD, bsp_sortC: ok\n");

  /* The parameters bsp_level1.h also declares (through bsp.h). */
  check_eq("bsp_s, bsp_l, bsp_g, bsp_nhalf", bsp_s() > 0 && bsp_l() > 0 && bsp_g() > 0 && bsp_nhalf() > 0, 1);
  if (me == 0) printf("%s\n", failures == 0 ? "process 0: no check failed" : "process 0: a check failed");
  fflush(stdout);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%d", &nprocs) != 1 || nprocs < 1) nprocs = bsp_nprocs();
  spmd();
  return 0;
}
