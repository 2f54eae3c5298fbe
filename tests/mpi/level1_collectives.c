/* level1_collectives.c: every level-1 collective of bspcheck/level1.h once, on values that
 * depend on the process, each process printing what it received. Built for the engine and with
 * --backend=mpi, the two runs must print the same lines (tests/mpi/mpi_run.py agree): the
 * collectives are built on the 20 primitives only, so this checks the MPI back end's primitives
 * under every pattern the collectives use (puts, gets, BSMP with tags, registration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"
#include "bspcheck/level1.h"

static void add_long(void *acc, const void *x, size_t count, void *ctx) {
  (void)ctx;
  for (size_t k = 0; k < count; k++) ((long *)acc)[k] += ((const long *)x)[k];
}

static void print_longs(const char *what, int s, const long *v, size_t n) {
  printf("%s: pid %d", what, s);
  for (size_t i = 0; i < n; i++) printf(" %ld", v[i]);
  printf("\n");
}

static void on_block(int from, const void *data, size_t count, void *ctx) {
  long *sum = ctx;
  for (size_t i = 0; i < count; i++) {
    long v;
    memcpy(&v, (const char *)data + i * sizeof v, sizeof v);
    *sum += (from + 1) * v;
  }
}

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  const size_t np = (size_t)p;
  long buf[3] = {s, 10 * s, 100 * s};
  long *all = calloc(2 * np, sizeof(long)), *other = calloc(2 * np, sizeof(long));

  if (s == p - 1) buf[0] = buf[1] = buf[2] = 7;
  bsp_bcast(p - 1, buf, 3, sizeof(long));
  print_longs("bcast", s, buf, 3);
  for (int i = 0; i < 3; i++) buf[i] = s == 0 ? 40 + i : -1;
  bsp_bcast_2phase(0, buf, 3, sizeof(long));
  print_longs("bcast_2phase", s, buf, 3);

  long mine[2] = {s + 1, (s + 1) * (s + 1)}, out[2] = {0, 0};
  bsp_reduce(0, mine, out, 2, sizeof(long), add_long, NULL);
  if (s == 0) print_longs("reduce", s, out, 2);
  bsp_allreduce(mine, out, 2, sizeof(long), add_long, NULL);
  print_longs("allreduce", s, out, 2);
  bsp_scan(mine, out, 2, sizeof(long), add_long, NULL);
  print_longs("scan", s, out, 2);

  bsp_gather(0, mine, all, 2, sizeof(long));
  if (s == 0) print_longs("gather", s, all, 2 * np);
  bsp_allgather(mine, all, 2, sizeof(long));
  print_longs("allgather", s, all, 2 * np);
  for (size_t i = 0; i < 2 * np; i++) all[i] = s == 0 ? (long)(1000 + i) : -1;
  bsp_scatter(0, all, out, 2, sizeof(long));
  print_longs("scatter", s, out, 2);

  for (size_t i = 0; i < 2 * np; i++) all[i] = 100 * s + (long)i;
  bsp_alltoall(all, other, 2, sizeof(long));
  print_longs("alltoall", s, other, 2 * np);

  /* Process s sends j + 1 elements to process j (none to itself when s is odd). */
  size_t *sendcounts = calloc(np, sizeof(size_t)), *sdispls = calloc(np, sizeof(size_t));
  size_t *recvcounts = calloc(np, sizeof(size_t)), *rdispls = calloc(np, sizeof(size_t));
  long *src = calloc(np * np, sizeof(long)), *dst = calloc(np * np, sizeof(long));
  size_t at = 0, rat = 0;
  for (int j = 0; j < p; j++) {
    sendcounts[j] = (j == s && s % 2) ? 0 : (size_t)j + 1;
    sdispls[j] = at;
    for (size_t k = 0; k < sendcounts[j]; k++) src[at + k] = 1000 * s + 10 * j + (long)k;
    at += sendcounts[j];
    recvcounts[j] = (j == s && s % 2) ? 0 : (size_t)s + 1;
    rdispls[j] = rat;
    rat += recvcounts[j];
  }
  bsp_alltoallv(src, sendcounts, sdispls, dst, recvcounts, rdispls, sizeof(long));
  print_longs("alltoallv", s, dst, rat);
  long weighted = 0;
  bsp_exchange(src, sendcounts, sdispls, sizeof(long), on_block, &weighted);
  printf("exchange: pid %d weighted %ld\n", s, weighted);

  free(all);
  free(other);
  free(sendcounts);
  free(sdispls);
  free(recvcounts);
  free(rdispls);
  free(src);
  free(dst);
  bsp_end();
  return 0;
}
