/* bench_deep_stack_program.c: a small program whose process 0 goes deeper on the main stack than
 * the stack's first mapping (132 KiB): it writes a byte to each page of 1 MB of locals in one
 * superstep. bench/bench_throughput.sh runs it for the schedules per second of such a program
 * (a worker must undo the stack's growth after every run; docs/performance.md). */
#include <bsp.h>
#include <stdio.h>

#define LOCALS (1 << 20)

static int deep(int n) {
  volatile unsigned char locals[LOCALS];
  for (int i = 0; i < LOCALS; i += 4096) locals[i] = (unsigned char)(i / 4096 + n);
  return locals[LOCALS - 4096];
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int got = 0;
  if (bsp_pid() == 0) got = deep(3);
  bsp_sync();
  if (bsp_pid() == 0) printf("deep: %d\n", got);
  bsp_end();
  return 0;
}
