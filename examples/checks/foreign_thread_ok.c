/* foreign_thread_ok.c: the correct twin of foreign_thread.c: the helper thread only computes and
 * prints; the process's own thread puts the result after joining it. */
#include <pthread.h>
#include <stdio.h>

#include "bsp.h"

enum { N = 1000 };

static long sums[64];
static long partial;

struct block {
  int s, p;
};

static void *sum_block(void *arg) {
  const struct block *b = arg;
  partial = 0;
  for (int i = b->s; i < N; i += b->p) partial += i;
  printf("foreign_thread_ok: helper of pid %d summed %ld\n", b->s, partial);
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
  bsp_put(0, &partial, sums, s * (int)sizeof(long), sizeof(long)); /* FIX */
  bsp_sync();
  if (s == 0) {
    long total = 0;
    for (int i = 0; i < p; i++) total += sums[i];
    printf("foreign_thread_ok: total %ld\n", total);
  }
  bsp_pop_reg(sums);
  bsp_end();
  return 0;
}
