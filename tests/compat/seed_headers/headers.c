/* headers.c: cbsp.h and bspk.h in strict ISO C (seed_headers.sh builds it with -std=c11
 * -pedantic-errors): the exact signatures of issue 13 as function pointers, the null comem pointer
 * as a static's initializer and as a value. */
#include "bsp.h"
#include "bspk.h"
#include "cbsp.h"

static bspk_ptr g = NULL_COMEM_PTR_INIT;
static bspk_ptr arr[2] = {NULL_COMEM_PTR_INIT, NULL_COMEM_PTR_INIT};
static void (*s1)(int, void *, const void *, int, cBSP_handler) = cBSP_send;
static bspk_ptr (*s2)(const char *, int, long, long) = bspk_malloc;
static void (*s3)(const int *) = bspk_will_send;
static void (*s4)(bspk_ptr, bspk_ptr, long) = bspk_copy;

int main(void) {
  bsp_begin(1);
  bspk_ptr local = NULL_COMEM_PTR;
  int ok = bspk_is_null(g) && bspk_is_null(arr[1]) && bspk_is_null(local) && s1 && s2 && s3 && s4;
  bsp_end();
  return ok ? 0 : 1;
}
