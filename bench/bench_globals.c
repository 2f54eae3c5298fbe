/* bench_globals.c: what per-process globals add to a process switch. A BSPlib program (program
 * mode, as users run theirs) with GLOBAL_BYTES of writable globals; p processes each make N
 * bsp_qsize calls under the round-robin strategy, so every call is a switch. Process 0 prints one
 * markdown row: ns per switch with BSPCHECK_OPTIONS=globals=shared and =private are two runs of
 * this same binary (bench/bench_globals.sh runs both side by side and prints the difference).
 *
 *   BSPCHECK_OPTIONS=procs=4:strategy=round_robin:globals=private ./bench_globals_1m 100000 */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef GLOBAL_BYTES
#define GLOBAL_BYTES 0
#endif

#if GLOBAL_BYTES > 0
char program_globals[GLOBAL_BYTES]; /* in .bss: part of every process's private copy */
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int queued = 0, bytes = 0;
  bsp_sync();
  double t0 = now();
  for (long i = 0; i < n; ++i) bsp_qsize(&queued, &bytes);
  bsp_sync();
  double t = now() - t0;
#if GLOBAL_BYTES > 0
  program_globals[bsp_pid()] = 1; /* keep the array */
#endif
  if (bsp_pid() == 0) printf("%.2f\n", t * 1e9 / ((double)n * bsp_nprocs()));
  bsp_end();
  return 0;
}
