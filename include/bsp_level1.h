/* bsp_level1.h: the Oxford BSP toolset's level-1 library (bsp_bcast, bsp_fold, bsp_sumI, ...),
 * served by bsp-check for Oxford toolset programs, which include this header and build with
 * `bspcc prog.c` alone, as the toolset's bspcc linked its level-1 library into every program.
 *
 * The toolset's API differs from bsp-check's own level-1 (bspcheck/level1.h, BSPCheck::level1):
 * the same names bsp_bcast, bsp_gather, bsp_scatter and bsp_scan take other arguments there. So
 * every name below is a macro for a bspcheck_oxford_* function of libbspcheck_oxford
 * (level1/oxford.c) that also receives the call's source line, and the two headers refuse to
 * meet in one file. Each operation is a collective: all processes call it, in the same order,
 * and it ends with bsp_sync, as the toolset's did; it is built on the primitives, so bsp-check
 * checks its communication like the program's own, and reports a finding inside it at the
 * program's line. Semantics and the differences from the toolset: docs/dialects.md.
 *
 * The macros are function-like (they add the call's line): a program taking the address of one
 * of these operations (&bsp_sumI) does not build. */
#ifndef BSPCHECK_OXFORD_LEVEL1_H
#define BSPCHECK_OXFORD_LEVEL1_H

#ifdef BSPCHECK_LEVEL1_H
#error \
    "bsp-check: the Oxford toolset's <bsp_level1.h> and bsp-check's <bspcheck/level1.h> declare bsp_bcast, bsp_gather, bsp_scatter and bsp_scan with different arguments: include one of them"
#endif

/* The toolset's programs include bsp.h beside this header; its machine parameters bsp_s, bsp_l,
 * bsp_g and bsp_nhalf, which the toolset declares in both, are declared there. */
#include "bsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The associative operator of bsp_fold and bsp_scan: op(result, left, right, &nbytes) stores
 * left (+) right in result; left holds the lower processes' values; result never aliases left or
 * right. nbytes is a pointer so that a Fortran 77 routine could serve, as in the toolset. */
typedef void (*bspcheck_oxford_op)(void *result, void *left, void *right, int *nbytes);

/* Data movement. bsp_bcast: src of process pid into dst on every process (dst registered, with
 * bsp_push_reg, on every process). bsp_gather: every process's nbytes at src into pid's dst,
 * process i's at offset i * nbytes (dst registered, p * nbytes long on pid). bsp_scatter: the
 * reverse, process i receives bytes i * nbytes.. of pid's src into dst (src registered). */
void bspcheck_oxford_bcast(int pid, void *src, void *dst, int nbytes, const char *file, int line);
void bspcheck_oxford_gather(int pid, void *src, void *dst, int nbytes, const char *file, int line);
void bspcheck_oxford_scatter(int pid, void *src, void *dst, int nbytes, const char *file, int line);

/* bsp_fold: dst = src_0 (+) src_1 (+) ... (+) src_{p-1} on every process. bsp_scan: the inclusive
 * prefix, dst = src_0 (+) ... (+) src_pid. Neither needs dst registered. */
void bspcheck_oxford_fold(bspcheck_oxford_op op, void *src, void *dst, int nbytes, const char *file, int line);
void bspcheck_oxford_scan(bspcheck_oxford_op op, void *src, void *dst, int nbytes, const char *file, int line);

/* Reductions of one value per process, returned on every process; the _prefix forms return the
 * inclusive prefix (processes 0..pid). I is int, R float, D double. bsp_all and bsp_any return 1
 * or 0; bsp_constantI returns 1 when every process passed the same value. */
int bspcheck_oxford_all(int x, const char *file, int line);
int bspcheck_oxford_any(int x, const char *file, int line);
int bspcheck_oxford_constantI(int x, const char *file, int line);
int bspcheck_oxford_sumI(int x, int prefix, const char *file, int line);
float bspcheck_oxford_sumR(float x, int prefix, const char *file, int line);
double bspcheck_oxford_sumD(double x, int prefix, const char *file, int line);
int bspcheck_oxford_productI(int x, int prefix, const char *file, int line);
float bspcheck_oxford_productR(float x, int prefix, const char *file, int line);
double bspcheck_oxford_productD(double x, int prefix, const char *file, int line);
int bspcheck_oxford_minI(int x, int prefix, const char *file, int line);
float bspcheck_oxford_minR(float x, int prefix, const char *file, int line);
double bspcheck_oxford_minD(double x, int prefix, const char *file, int line);
int bspcheck_oxford_maxI(int x, int prefix, const char *file, int line);
float bspcheck_oxford_maxR(float x, int prefix, const char *file, int line);
double bspcheck_oxford_maxD(double x, int prefix, const char *file, int line);

/* Sorting one value per process: process i receives the i-th smallest of the p values. */
int bspcheck_oxford_sortI(int x, const char *file, int line);
float bspcheck_oxford_sortR(float x, const char *file, int line);
double bspcheck_oxford_sortD(double x, const char *file, int line);
char bspcheck_oxford_sortC(char x, const char *file, int line);

#ifdef BSPCHECK_NO_SITE_MACROS
/* Bare declarations: the toolset's names as functions. libbspcheck_oxford exports them too
 * (level1/oxford_names.c), for the toolset's programs that call them without including this
 * header, as C89 let them; each finds its caller's line from the debug information. */
void bsp_bcast(int pid, void *src, void *dst, int nbytes);
void bsp_gather(int pid, void *src, void *dst, int nbytes);
void bsp_scatter(int pid, void *src, void *dst, int nbytes);
void bsp_fold(bspcheck_oxford_op op, void *src, void *dst, int nbytes);
void bsp_scan(bspcheck_oxford_op op, void *src, void *dst, int nbytes);
int bsp_all(int x);
int bsp_any(int x);
int bsp_constantI(int x);
int bsp_sumI(int x);
int bsp_sumI_prefix(int x);
float bsp_sumR(float x);
float bsp_sumR_prefix(float x);
double bsp_sumD(double x);
double bsp_sumD_prefix(double x);
int bsp_productI(int x);
int bsp_productI_prefix(int x);
float bsp_productR(float x);
float bsp_productR_prefix(float x);
double bsp_productD(double x);
double bsp_productD_prefix(double x);
int bsp_minI(int x);
int bsp_minI_prefix(int x);
float bsp_minR(float x);
float bsp_minR_prefix(float x);
double bsp_minD(double x);
double bsp_minD_prefix(double x);
int bsp_maxI(int x);
int bsp_maxI_prefix(int x);
float bsp_maxR(float x);
float bsp_maxR_prefix(float x);
double bsp_maxD(double x);
double bsp_maxD_prefix(double x);
int bsp_sortI(int x);
float bsp_sortR(float x);
double bsp_sortD(double x);
char bsp_sortC(char x);
#endif

#ifdef __cplusplus
}
#endif

#ifndef BSPCHECK_NO_SITE_MACROS
#define BSPCHECK_OXFORD_AT_ __FILE__, __LINE__
/* The toolset's own programs pass typed operators (void add(int *, int *, int *, int *)), which
 * its header, declaring no bsp_fold, let through; the cast through void (*)(void) keeps them
 * building without a warning (the call passes the same pointers either way). */
#define BSPCHECK_OXFORD_OP_(op) ((bspcheck_oxford_op)(void (*)(void))(op))

#define bsp_bcast(pid, src, dst, nbytes) bspcheck_oxford_bcast((pid), (src), (dst), (nbytes), BSPCHECK_OXFORD_AT_)
#define bsp_gather(pid, src, dst, nbytes) bspcheck_oxford_gather((pid), (src), (dst), (nbytes), BSPCHECK_OXFORD_AT_)
#define bsp_scatter(pid, src, dst, nbytes) bspcheck_oxford_scatter((pid), (src), (dst), (nbytes), BSPCHECK_OXFORD_AT_)
#define bsp_fold(op, src, dst, nbytes) \
  bspcheck_oxford_fold(BSPCHECK_OXFORD_OP_(op), (src), (dst), (nbytes), BSPCHECK_OXFORD_AT_)
#define bsp_scan(op, src, dst, nbytes) \
  bspcheck_oxford_scan(BSPCHECK_OXFORD_OP_(op), (src), (dst), (nbytes), BSPCHECK_OXFORD_AT_)

#define bsp_all(x) bspcheck_oxford_all((x), BSPCHECK_OXFORD_AT_)
#define bsp_any(x) bspcheck_oxford_any((x), BSPCHECK_OXFORD_AT_)
#define bsp_constantI(x) bspcheck_oxford_constantI((x), BSPCHECK_OXFORD_AT_)

#define bsp_sumI(x) bspcheck_oxford_sumI((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_sumR(x) bspcheck_oxford_sumR((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_sumD(x) bspcheck_oxford_sumD((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_sumI_prefix(x) bspcheck_oxford_sumI((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_sumR_prefix(x) bspcheck_oxford_sumR((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_sumD_prefix(x) bspcheck_oxford_sumD((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_productI(x) bspcheck_oxford_productI((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_productR(x) bspcheck_oxford_productR((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_productD(x) bspcheck_oxford_productD((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_productI_prefix(x) bspcheck_oxford_productI((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_productR_prefix(x) bspcheck_oxford_productR((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_productD_prefix(x) bspcheck_oxford_productD((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_minI(x) bspcheck_oxford_minI((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_minR(x) bspcheck_oxford_minR((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_minD(x) bspcheck_oxford_minD((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_minI_prefix(x) bspcheck_oxford_minI((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_minR_prefix(x) bspcheck_oxford_minR((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_minD_prefix(x) bspcheck_oxford_minD((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_maxI(x) bspcheck_oxford_maxI((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_maxR(x) bspcheck_oxford_maxR((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_maxD(x) bspcheck_oxford_maxD((x), 0, BSPCHECK_OXFORD_AT_)
#define bsp_maxI_prefix(x) bspcheck_oxford_maxI((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_maxR_prefix(x) bspcheck_oxford_maxR((x), 1, BSPCHECK_OXFORD_AT_)
#define bsp_maxD_prefix(x) bspcheck_oxford_maxD((x), 1, BSPCHECK_OXFORD_AT_)

#define bsp_sortI(x) bspcheck_oxford_sortI((x), BSPCHECK_OXFORD_AT_)
#define bsp_sortR(x) bspcheck_oxford_sortR((x), BSPCHECK_OXFORD_AT_)
#define bsp_sortD(x) bspcheck_oxford_sortD((x), BSPCHECK_OXFORD_AT_)
#define bsp_sortC(x) bspcheck_oxford_sortC((x), BSPCHECK_OXFORD_AT_)

#endif /* BSPCHECK_NO_SITE_MACROS */

#endif /* BSPCHECK_OXFORD_LEVEL1_H */
