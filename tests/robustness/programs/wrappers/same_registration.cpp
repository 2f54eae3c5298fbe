// same_registration.cpp: every process registers `a` and then `b` through the helper in
// registered.hpp, from the same lines of main. Inlined (-O2), the helper's second frame is main's
// caller, which differs between process 0 (the C library) and the others (the runtime): the slot's
// calls are still one line each, and reg-site-mismatch must not be reported.
#include "registered.hpp"

int main() {
  bsp_begin(bsp_nprocs());
  int a = 0, b = 0;
  register_area(&a, 1);
  register_area(&b, 1);
  bsp_sync();
  bsp_pop_reg(&a);
  bsp_pop_reg(&b);
  bsp_sync();
  bsp_end();
  return 0;
}
