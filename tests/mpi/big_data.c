/* big_data.c: every process fills an array of argv[1] MiB (64 by default) after bsp_begin and
 * sums it with its neighbour's first word: a record of it says how much memory each rank's data
 * took, and a replay of all ranks in one process needs their sum (tests/mpi, "fits"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  const size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
  const size_t n = mib << 20;
  unsigned char *data = malloc(n);
  if (!data) bsp_abort("big_data: no %zu MiB\n", mib);
  memset(data, 1 + bsp_pid(), n);
  unsigned char first = 0;
  bsp_push_reg(data, (int)(n < 1024 ? n : 1024));
  bsp_sync();
  bsp_get((bsp_pid() + 1) % bsp_nprocs(), data, 0, &first, 1);
  bsp_sync();
  unsigned long sum = first;
  for (size_t i = 0; i < n; i += 4096) sum += data[i];
  printf("big_data: pid %d sum %lu\n", bsp_pid(), sum);
  bsp_pop_reg(data);
  bsp_end();
  free(data);
  return 0;
}
