/* oxford.c: the Oxford BSP toolset's level-1 library (include/bsp_level1.h) on the 20 BSPlib
 * primitives, for Oxford toolset programs built with bspcc (libbspcheck_oxford).
 *
 * Written from the toolset's documented semantics (its manual pages and bsp_level1.h), not from
 * its code. Every operation is a collective that ends with bsp_sync:
 *   - bcast, gather, scatter: one superstep, moving data into (or out of) an area the program
 *     registered, which the toolset requires of its callers;
 *   - fold, scan and the typed reductions, constantI and the sorts: two supersteps, registering a
 *     scratch area of their own and then putting every process's value into it (the toolset
 *     chose among algorithms by the machine's l and g, with one to log p supersteps; the results
 *     are the same, only the number of barriers differs).
 * Operators combine in process order, left operand the lower processes' (as the toolset's did),
 * so a non-commutative operator, or floating-point rounding, gives the same result under every
 * schedule and p.
 *
 * Each primitive is called at the program's line (the macros of bsp_level1.h pass it), so a
 * finding inside an operation (an unregistered dst of bsp_bcast) names the program's call, and
 * each operation is bracketed by bsp-check's level-1 hygiene checks (bspcheck/hygiene.h). No
 * function keeps static state: a shared library's data is shared by all processes under
 * bsp-check. */
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"
#include "bsp_level1.h"
#include "bspcheck/hygiene.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The program's call site, which every primitive of the operation is attributed to. */
typedef struct {
  const char *file;
  int line;
} ox_site;

#define OX_CALL(at, call) (bspcheck_set_site((at).file, (at).line), call)

static int ox_nprocs(ox_site at) { return bspcheck_nprocs_at(at.file, at.line); }
static int ox_pid(ox_site at) { return bspcheck_pid_at(at.file, at.line); }

static void ox_enter(const char *name, ox_site at) { bspcheck_level1_enter_at(name, at.file, at.line); }
static void ox_exit(const char *name, ox_site at) { bspcheck_level1_exit_at(name, at.file, at.line); }

static void ox_check_pid(const char *fn, int pid, ox_site at) {
  if (pid < 0 || pid >= ox_nprocs(at))
    OX_CALL(at, bsp_abort("%s at %s:%d: pid %d is not a process (p = %d)", fn, at.file, at.line, pid, ox_nprocs(at)));
}

static void ox_check_nbytes(const char *fn, int nbytes, ox_site at) {
  if (nbytes < 0) OX_CALL(at, bsp_abort("%s at %s:%d: nbytes %d is negative", fn, at.file, at.line, nbytes));
}

/* p * nbytes as an int, or bsp_abort: the scratch areas are registered with an int size. */
static int ox_table_bytes(const char *fn, int p, int nbytes, ox_site at) {
  if (nbytes > 0 && p > INT_MAX / nbytes)
    OX_CALL(at,
            bsp_abort("%s at %s:%d: %d processes * %d bytes do not fit in an int", fn, at.file, at.line, p, nbytes));
  return p * nbytes;
}

static void *ox_alloc(const char *fn, size_t n, ox_site at) {
  void *m = malloc(n ? n : 1);
  if (!m) OX_CALL(at, bsp_abort("%s at %s:%d: cannot allocate %zu bytes", fn, at.file, at.line, n));
  return m;
}

/* The opening of a rooted collective (bcast, gather, scatter): entered, root and size checked. */
static void ox_begin(const char *fn, int pid, int nbytes, ox_site at) {
  ox_enter(fn, at);
  ox_check_pid(fn, pid, at);
  ox_check_nbytes(fn, nbytes, at);
}

void bspcheck_oxford_bcast(int pid, void *src, void *dst, int nbytes, const char *file, int line) {
  const ox_site at = {file, line};
  ox_begin("bsp_bcast", pid, nbytes, at);
  const int p = ox_nprocs(at);
  /* Into every process's dst, the root's own included: a put, not a copy, so that the root's dst
   * changes at the barrier like everybody else's (and src may be dst). */
  if (ox_pid(at) == pid)
    for (int i = 0; i < p; ++i) OX_CALL(at, bsp_put(i, src, dst, 0, nbytes));
  OX_CALL(at, bsp_sync());
  ox_exit("bsp_bcast", at);
}

void bspcheck_oxford_gather(int pid, void *src, void *dst, int nbytes, const char *file, int line) {
  const ox_site at = {file, line};
  ox_begin("bsp_gather", pid, nbytes, at);
  const int me = ox_pid(at);
  ox_table_bytes("bsp_gather", ox_nprocs(at), nbytes, at);
  OX_CALL(at, bsp_put(pid, src, dst, me * nbytes, nbytes));
  OX_CALL(at, bsp_sync());
  ox_exit("bsp_gather", at);
}

void bspcheck_oxford_scatter(int pid, void *src, void *dst, int nbytes, const char *file, int line) {
  const ox_site at = {file, line};
  ox_begin("bsp_scatter", pid, nbytes, at);
  const int me = ox_pid(at);
  ox_table_bytes("bsp_scatter", ox_nprocs(at), nbytes, at);
  OX_CALL(at, bsp_get(pid, src, me * nbytes, dst, nbytes));
  OX_CALL(at, bsp_sync());
  ox_exit("bsp_scatter", at);
}

/* Every process's nbytes at src, as block i of table (from process i), on every process (upto_me
 * 0) or on the processes above it (upto_me 1: a process receives blocks 0..pid only). Two
 * supersteps: the registration of table, then the puts. Own block copied, not put. */
static void ox_collect(const void *src, char *table, int nbytes, int upto_me, ox_site at) {
  const int p = ox_nprocs(at), me = ox_pid(at);
  OX_CALL(at, bsp_push_reg(table, upto_me ? (me + 1) * nbytes : p * nbytes));
  OX_CALL(at, bsp_sync());
  for (int i = upto_me ? me + 1 : 0; i < p; ++i)
    if (i != me) OX_CALL(at, bsp_put(i, src, table, me * nbytes, nbytes));
  if (nbytes > 0) memcpy(table + (size_t)me * (size_t)nbytes, src, (size_t)nbytes);
  OX_CALL(at, bsp_sync());
  OX_CALL(at, bsp_pop_reg(table));
}

/* dst = block 0 (+) ... (+) block last of table, left to right; op's result never aliases its
 * operands (the toolset promises operators that), so it alternates between two buffers. */
static void ox_combine(const char *fn, bspcheck_oxford_op op, const char *table, int last, int nbytes, void *dst,
                       ox_site at) {
  char *acc = (char *)ox_alloc(fn, (size_t)nbytes, at), *next = (char *)ox_alloc(fn, (size_t)nbytes, at);
  if (nbytes > 0) memcpy(acc, table, (size_t)nbytes);
  for (int i = 1; i <= last; ++i) {
    int n = nbytes; /* the operator's own copy: it may write through the pointer */
    op(next, acc, (void *)(table + (size_t)i * (size_t)nbytes), &n);
    char *t = acc;
    acc = next;
    next = t;
  }
  if (nbytes > 0) memcpy(dst, acc, (size_t)nbytes);
  free(acc);
  free(next);
}

/* fold (prefix 0) or scan (prefix 1). */
static void ox_reduce(const char *fn, bspcheck_oxford_op op, void *src, void *dst, int nbytes, int prefix, ox_site at) {
  ox_enter(fn, at);
  ox_check_nbytes(fn, nbytes, at);
  const int p = ox_nprocs(at), me = ox_pid(at);
  char *table = (char *)ox_alloc(fn, (size_t)ox_table_bytes(fn, p, nbytes, at), at);
  ox_collect(src, table, nbytes, prefix, at);
  ox_combine(fn, op, table, prefix ? me : p - 1, nbytes, dst, at);
  free(table);
  ox_exit(fn, at);
}

void bspcheck_oxford_fold(bspcheck_oxford_op op, void *src, void *dst, int nbytes, const char *file, int line) {
  ox_reduce("bsp_fold", op, src, dst, nbytes, 0, (ox_site){file, line});
}

void bspcheck_oxford_scan(bspcheck_oxford_op op, void *src, void *dst, int nbytes, const char *file, int line) {
  ox_reduce("bsp_scan", op, src, dst, nbytes, 1, (ox_site){file, line});
}

/* The typed operators, and the typed reductions over them: NAME(x, prefix, file, line). */
#define OX_OPERATOR(name, type, expr)                               \
  static void name(void *result, void *left, void *right, int *n) { \
    const type a = *(const type *)left, b = *(const type *)right;   \
    (void)n;                                                        \
    *(type *)result = (expr);                                       \
  }
#define OX_REDUCTION(fn_name, op_name, type, expr, label)                                        \
  OX_OPERATOR(op_name, type, expr)                                                               \
  type fn_name(type x, int prefix, const char *file, int line) {                                 \
    type result;                                                                                 \
    ox_reduce(prefix ? label "_prefix" : label, op_name, &x, &result, (int)sizeof(type), prefix, \
              (ox_site){file, line});                                                            \
    return result;                                                                               \
  }

OX_REDUCTION(bspcheck_oxford_sumI, ox_add_int, int, a + b, "bsp_sumI")
OX_REDUCTION(bspcheck_oxford_sumR, ox_add_float, float, a + b, "bsp_sumR")
OX_REDUCTION(bspcheck_oxford_sumD, ox_add_double, double, a + b, "bsp_sumD")
OX_REDUCTION(bspcheck_oxford_productI, ox_mul_int, int, a *b, "bsp_productI")
OX_REDUCTION(bspcheck_oxford_productR, ox_mul_float, float, a *b, "bsp_productR")
OX_REDUCTION(bspcheck_oxford_productD, ox_mul_double, double, a *b, "bsp_productD")
OX_REDUCTION(bspcheck_oxford_minI, ox_min_int, int, a < b ? a : b, "bsp_minI")
OX_REDUCTION(bspcheck_oxford_minR, ox_min_float, float, a < b ? a : b, "bsp_minR")
OX_REDUCTION(bspcheck_oxford_minD, ox_min_double, double, a < b ? a : b, "bsp_minD")
OX_REDUCTION(bspcheck_oxford_maxI, ox_max_int, int, a > b ? a : b, "bsp_maxI")
OX_REDUCTION(bspcheck_oxford_maxR, ox_max_float, float, a > b ? a : b, "bsp_maxR")
OX_REDUCTION(bspcheck_oxford_maxD, ox_max_double, double, a > b ? a : b, "bsp_maxD")

OX_OPERATOR(ox_and, int, a &&b)
OX_OPERATOR(ox_or, int, a || b)

/* 1 or 0 on every p. (The toolset's fold copied src on one process, so there bsp_all(5) was 5;
 * its operators give 1 or 0 from two processes on.) */
int bspcheck_oxford_all(int x, const char *file, int line) {
  int result;
  ox_reduce("bsp_all", ox_and, &x, &result, (int)sizeof x, 0, (ox_site){file, line});
  return result != 0;
}

int bspcheck_oxford_any(int x, const char *file, int line) {
  int result;
  ox_reduce("bsp_any", ox_or, &x, &result, (int)sizeof x, 0, (ox_site){file, line});
  return result != 0;
}

int bspcheck_oxford_constantI(int x, const char *file, int line) {
  const ox_site at = {file, line};
  ox_enter("bsp_constantI", at);
  const int p = ox_nprocs(at);
  int *all = (int *)ox_alloc("bsp_constantI", (size_t)p * sizeof(int), at);
  ox_collect(&x, (char *)all, (int)sizeof x, 0, at);
  int same = 1;
  for (int i = 1; i < p; ++i)
    if (all[i] != all[0]) same = 0;
  free(all);
  ox_exit("bsp_constantI", at);
  return same;
}

/* Every process's value on every process, sorted there (insertion sort: p is small, and it is
 * stable, like the toolset's bubble sort), and process i keeps the i-th. */
#define OX_SORT(fn_name, type, label)                                  \
  type fn_name(type x, const char *file, int line) {                   \
    const ox_site at = {file, line};                                   \
    ox_enter(label, at);                                               \
    const int p = ox_nprocs(at), me = ox_pid(at);                      \
    type *all = (type *)ox_alloc(label, (size_t)p * sizeof(type), at); \
    ox_collect(&x, (char *)all, (int)sizeof x, 0, at);                 \
    for (int i = 1; i < p; ++i) {                                      \
      const type v = all[i];                                           \
      int j = i;                                                       \
      for (; j > 0 && v < all[j - 1]; --j) all[j] = all[j - 1];        \
      all[j] = v;                                                      \
    }                                                                  \
    const type mine = all[me];                                         \
    free(all);                                                         \
    ox_exit(label, at);                                                \
    return mine;                                                       \
  }

OX_SORT(bspcheck_oxford_sortI, int, "bsp_sortI")
OX_SORT(bspcheck_oxford_sortR, float, "bsp_sortR")
OX_SORT(bspcheck_oxford_sortD, double, "bsp_sortD")
OX_SORT(bspcheck_oxford_sortC, char, "bsp_sortC")
