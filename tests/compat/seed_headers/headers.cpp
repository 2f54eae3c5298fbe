// headers.cpp: cbsp.h and bspk.h in strict ISO C++ (seed_headers.sh builds it with -std=c++17
// -pedantic-errors): NULL_COMEM_PTR is no compound literal there.
#include "bsp.h"
#include "bspk.h"
#include "cbsp.h"

static bspk_ptr g = NULL_COMEM_PTR;
static void (*s1)(int, void*, const void*, int, cBSP_handler) = cBSP_send;

int main() {
  bsp_begin(1);
  bspk_ptr local = NULL_COMEM_PTR;
  const bool ok = bspk_is_null(g) && bspk_is_null(local) && s1;
  bsp_end();
  return ok ? 0 : 1;
}
