/* 20,000 supersteps of one put each: a trace of most of a megabyte (bad_usage_test.sh writes it
 * where a file may not grow that large). */
#include <bsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  int x = 0;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  for (int i = 0; i < 20000; ++i) {
    bsp_put((bsp_pid() + 1) % bsp_nprocs(), &i, &x, 0, sizeof i);
    bsp_sync();
  }
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
