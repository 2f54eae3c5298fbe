/* wall_clock.c: seeds rand with time(NULL) before bsp_begin and prints a phase's elapsed time
   from gettimeofday and a monotonic clock_gettime reading: its output depends on when it runs,
   unless bsp-check --virtual-time makes the C library's clocks virtual (engine/core/libc_clocks.cpp).
   Used by tests/tools/determinism_test.py. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

int main(void) {
  srand((unsigned)time(NULL));
  bsp_begin(bsp_nprocs());
  struct timeval a, b;
  gettimeofday(&a, NULL);
  const int x = rand() % 1000;
  bsp_sync();
  gettimeofday(&b, NULL);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const long elapsed = (long)((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_usec - a.tv_usec));
  printf("pid %d: rand %d, elapsed %ld us, monotonic %ld s, %s\n", bsp_pid(), x, elapsed, (long)ts.tv_sec,
         elapsed > 0 ? "increasing" : "NOT INCREASING");
  bsp_end();
  return 0;
}
