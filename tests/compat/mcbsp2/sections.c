/* sections.c: MulticoreBSP for C runs SPMD sections one after another, as its own examples do
 * (a sequential section, then a parallel one; BSP_program::begin called twice): bsp_init names
 * each section's function, and main calls it. Section 1 sums 1..100 on one process, section 2
 * sums it on P processes and compares, section 3 (another function) has every process send one
 * message to process 0. The globals are shared, as between MulticoreBSP's threads. */
#include <mcbsp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int P;
static long sequential_sum;

static void sequential(void) {
  bsp_begin(1);
  long sum = 0;
  for (long i = 1; i <= 100; ++i) sum += i;
  sequential_sum = sum;
  printf("Section 1: sum 1..100 = %ld\n", sum);
  bsp_end();
}

static void parallel(void) {
  bsp_begin(P);
  const bsp_pid_t p = bsp_nprocs(), s = bsp_pid();
  long *partial = calloc(p, sizeof *partial);
  bsp_push_reg(partial, p * sizeof *partial);
  bsp_sync();
  long mine = 0;
  for (long i = 1 + (long)s; i <= 100; i += (long)p) mine += i;
  bsp_put(0, &mine, partial, s * sizeof mine, sizeof mine);
  bsp_sync();
  if (s == 0) {
    long total = 0;
    for (bsp_pid_t q = 0; q < p; ++q) total += partial[q];
    printf("Section 2: the parallel sum equals section 1's: %s\n", total == sequential_sum ? "yes" : "no");
  }
  bsp_pop_reg(partial);
  bsp_sync();
  free(partial);
  bsp_end();
}

static void messages(void) {
  bsp_begin(P);
  const bsp_pid_t p = bsp_nprocs(), s = bsp_pid();
  int pid = (int)s;
  bsp_send(0, NULL, &pid, sizeof pid);
  bsp_sync();
  if (s == 0) {
    bsp_nprocs_t packets = 0;
    bsp_size_t bytes = 0;
    bsp_qsize(&packets, &bytes);
    int seen = 0;
    for (bsp_nprocs_t m = 0; m < packets; ++m) {
      int from = -1;
      bsp_move(&from, sizeof from);
      if (from >= 0 && from < (int)p) seen |= 1 << from;
    }
    printf("Section 3: process 0 received a message from every process: %s\n",
           packets == p && seen == (1 << p) - 1 ? "yes" : "no");
  }
  bsp_end();
}

int main(int argc, char **argv) {
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%u", &P) != 1 || P < 1) return 1;
  if (P > bsp_nprocs()) P = bsp_nprocs();
  bsp_init(sequential, argc, argv);
  sequential();
  bsp_init(parallel, argc, argv);
  parallel();
  bsp_init(messages, argc, argv);
  messages();
  return 0;
}
