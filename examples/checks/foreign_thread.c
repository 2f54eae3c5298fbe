/* foreign_thread.c: a helper thread makes a BSPlib call.
 *
 * Each process sums its block with a helper thread, and the helper sends the partial sum to
 * process 0 itself. A BSP process is one sequential program: on BSPonMPI the helper's bsp_put
 * races with the process's own calls, on MulticoreBSP the helper is no process at all. bsp-check
 * reports `foreign-thread` at the helper's call (the call has no effect) and stops the run at the
 * process's next bsp_sync.
 * Fix: join the helper, then make the call on the process's own thread: see foreign_thread_ok.c. */
#include <pthread.h>
#include <stdio.h>

#include "bsp.h"

enum { N = 1000 };

static long sums[64]; /* process 0 gathers one partial sum per process */
static long partial;

struct block {
  int s, p;
};

static void *sum_block(void *arg) {
  const struct block *b = arg;
  partial = 0;
  for (int i = b->s; i < N; i += b->p) partial += i;
  bsp_put(0, &partial, sums, b->s * (int)sizeof(long), sizeof(long)); /* BUG: foreign-thread @ superstep 1, process any */
  return NULL;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid(), p = bsp_nprocs();
  bsp_push_reg(sums, sizeof sums);
  bsp_sync();
  struct block b = {s, p};
  pthread_t helper;
  pthread_create(&helper, NULL, sum_block, &b);
  pthread_join(helper, NULL);
  bsp_sync();
  if (s == 0) {
    long total = 0;
    for (int i = 0; i < p; i++) total += sums[i];
    printf("foreign_thread: total %ld\n", total);
  }
  bsp_pop_reg(sums);
  bsp_end();
  return 0;
}
