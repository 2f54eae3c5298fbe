// swapped_registration.cpp: process 0 registers `a` then `b`, the others `b` then `a`, through a
// helper in a header (registered.hpp): every bsp_push_reg is on the helper's line, so only the
// callers' lines tell the slots' calls apart. reg-site-mismatch must name the lines marked SITE.
#include "registered.hpp"

int main() {
  bsp_begin(bsp_nprocs());
  int a = 0, b = 0;
  if (bsp_pid() == 0) {
    register_area(&a, 1);  // SITE
    register_area(&b, 1);  // SITE
  } else {
    register_area(&b, 1);  // SITE
    register_area(&a, 1);  // SITE
  }
  bsp_sync();
  bsp_pop_reg(&a);
  bsp_pop_reg(&b);
  bsp_sync();
  bsp_end();
  return 0;
}
