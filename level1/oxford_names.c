/* oxford_names.c: the Oxford BSP toolset's level-1 operations under their own names, as functions
 * (bsp_bcast, bsp_sumI, ...), for the toolset's programs that call them without including
 * bsp_level1.h. The toolset's bsp.h did not declare them and C89 declared such calls implicitly;
 * its bspcc linked the library that defined them (some of its own example programs rely on that).
 * A program that includes bsp_level1.h calls the bspcheck_oxford_* functions through its macros,
 * which pass the call's line; here the line comes from the caller's return address and the
 * program's debug information ("?" without it). Reading that information costs some tens of
 * milliseconds in each run that calls one of these: the header's macros are the fast way.
 *
 * libbspcheck_level1 (bspcheck/level1.h) has functions named bsp_bcast, bsp_gather, bsp_scatter
 * and bsp_scan with other arguments: a program linked with it (-lbspcheck_level1, before bspcc's
 * own libraries) binds those names to it, and then loads nothing from here for them. */
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"
#include "bsp_level1.h"

const char *bspcheck_call_source(const void *pc, int *line);

/* The caller's file and line, named in this function's own frame (a return address). */
#define OX_CALLER                                                                \
  int line_ = 0;                                                                 \
  const char *file_ = bspcheck_call_source(__builtin_return_address(0), &line_); \
  if (!file_) file_ = "?"

void bsp_bcast(int pid, void *src, void *dst, int nbytes) {
  OX_CALLER;
  bspcheck_oxford_bcast(pid, src, dst, nbytes, file_, line_);
}
void bsp_gather(int pid, void *src, void *dst, int nbytes) {
  OX_CALLER;
  bspcheck_oxford_gather(pid, src, dst, nbytes, file_, line_);
}
void bsp_scatter(int pid, void *src, void *dst, int nbytes) {
  OX_CALLER;
  bspcheck_oxford_scatter(pid, src, dst, nbytes, file_, line_);
}
void bsp_fold(bspcheck_oxford_op op, void *src, void *dst, int nbytes) {
  OX_CALLER;
  bspcheck_oxford_fold(op, src, dst, nbytes, file_, line_);
}
void bsp_scan(bspcheck_oxford_op op, void *src, void *dst, int nbytes) {
  OX_CALLER;
  bspcheck_oxford_scan(op, src, dst, nbytes, file_, line_);
}
int bsp_all(int x) {
  OX_CALLER;
  return bspcheck_oxford_all(x, file_, line_);
}
int bsp_any(int x) {
  OX_CALLER;
  return bspcheck_oxford_any(x, file_, line_);
}
int bsp_constantI(int x) {
  OX_CALLER;
  return bspcheck_oxford_constantI(x, file_, line_);
}

/* A reduction and its prefix form: bsp_<op><T>(x) and bsp_<op><T>_prefix(x). */
#define OX_REDUCTION(op, T, type)                       \
  type bsp_##op##T(type x) {                            \
    OX_CALLER;                                          \
    return bspcheck_oxford_##op##T(x, 0, file_, line_); \
  }                                                     \
  type bsp_##op##T##_prefix(type x) {                   \
    OX_CALLER;                                          \
    return bspcheck_oxford_##op##T(x, 1, file_, line_); \
  }
#define OX_REDUCTIONS(op) OX_REDUCTION(op, I, int) OX_REDUCTION(op, R, float) OX_REDUCTION(op, D, double)
OX_REDUCTIONS(sum)
OX_REDUCTIONS(product)
OX_REDUCTIONS(min)
OX_REDUCTIONS(max)

#define OX_SORT(T, type)                             \
  type bsp_sort##T(type x) {                         \
    OX_CALLER;                                       \
    return bspcheck_oxford_sort##T(x, file_, line_); \
  }
OX_SORT(I, int)
OX_SORT(R, float)
OX_SORT(D, double)
OX_SORT(C, char)
