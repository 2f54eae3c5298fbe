/* bench_trace_program.c: 2000 supersteps of 64 puts per process to the right neighbour (about a million
   BSPlib calls at p = 8), for bench/bench_trace.sh: the cost of recording and replaying a trace. */
#include <bsp.h>
int main(void) {
  bsp_begin(bsp_nprocs());
  static int x[64];
  bsp_push_reg(x, sizeof x);
  bsp_sync();
  int v = bsp_pid();
  for (int s = 0; s < 2000; ++s) {
    for (int k = 0; k < 64; ++k) bsp_put((bsp_pid() + 1) % bsp_nprocs(), &v, x, k * (int)sizeof(int), sizeof v);
    bsp_sync();
  }
  bsp_pop_reg(x);
  bsp_sync();
  bsp_end();
  return 0;
}
