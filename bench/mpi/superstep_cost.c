/* superstep_cost.c: the cost of a superstep under the MPI back end (docs/mpi.md, "Cost"): an
 * empty superstep, a ring of 8-byte puts, a ring of 8-byte hpgets (whose sources
 * hp-src-modified reads at the call: compare with BSPCHECK_OPTIONS=...:disable=hp-src-modified),
 * an all-to-all of 8-byte messages and a 1 MiB put to the right neighbour, each repeated; process
 * 0 prints the wall time per superstep. Run with real time (bsp_time from the wall clock):
 *   bspcc --backend=mpi -O2 bench/mpi/superstep_cost.c -o superstep_cost
 *   BSPCHECK_OPTIONS=realtime=1 mpiexec -n 4 ./superstep_cost [repetitions] */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

enum { kLarge = 1 << 20 };

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  const int reps = argc > 1 ? atoi(argv[1]) : 2000;
  const int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
  long cell = 0, value = s;
  char *large = calloc(kLarge, 1), *source = calloc(kLarge, 1);
  bsp_push_reg(&cell, sizeof cell);
  bsp_push_reg(large, kLarge);
  bsp_sync();

  double t = bsp_time();
  for (int i = 0; i < reps; i++) bsp_sync();
  const double empty = (bsp_time() - t) / reps;

  t = bsp_time();
  for (int i = 0; i < reps; i++) {
    bsp_put(right, &value, &cell, 0, sizeof value);
    bsp_sync();
  }
  const double ring = (bsp_time() - t) / reps;

  long got = 0;
  t = bsp_time();
  for (int i = 0; i < reps; i++) {
    bsp_hpget(right, &cell, 0, &got, sizeof got);
    bsp_sync();
  }
  const double hpget_ring = (bsp_time() - t) / reps;

  t = bsp_time();
  for (int i = 0; i < reps; i++) {
    for (int d = 0; d < p; d++) bsp_send(d, NULL, &value, sizeof value);
    bsp_sync();
    int n = 0, bytes = 0;
    bsp_qsize(&n, &bytes);
    for (int k = 0; k < n; k++) bsp_move(&cell, sizeof cell);
  }
  const double alltoall = (bsp_time() - t) / reps;

  const int large_reps = reps / 20 > 0 ? reps / 20 : 1;
  t = bsp_time();
  for (int i = 0; i < large_reps; i++) {
    bsp_put(right, source, large, 0, kLarge);
    bsp_sync();
  }
  const double big = (bsp_time() - t) / large_reps;

  if (s == 0)
    printf(
        "p %d: empty %.2f us, ring of puts %.2f us, ring of hpgets %.2f us, all-to-all of messages %.2f us, "
        "1 MiB put %.1f us per superstep\n",
        p, empty * 1e6, ring * 1e6, hpget_ring * 1e6, alltoall * 1e6, big * 1e6);
  bsp_pop_reg(large);
  bsp_pop_reg(&cell);
  bsp_sync();
  free(large);
  free(source);
  bsp_end();
  return 0;
}
