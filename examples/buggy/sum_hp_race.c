/* buggy/sum_hp_race.c: a running global mean built on the paper's bsp_sum (section 3.3.2), with
 * a REAL race. bsp-check finds it under some seeds, not all.
 *
 * Every step, each process contributes a value; every process fetches every contribution, and
 * every process's element count, with bsp_hpget to compute the global sum and mean; then each
 * process checks the sum against the value it must have. To "overlap
 * computation with communication", the author prepares the next step's contribution right after
 * issuing the gets, in the same superstep:
 *
 *     for (i = 0; i < p; i++) bsp_hpget(i, &contrib, 0, &sums[i], sizeof(int));
 *     for (i = 0; i < p; i++) bsp_hpget(i, &count, 0, &counts[i], sizeof(int));
 *     contrib = contribution(s, p, step + 1);        <-- BUG
 *     bsp_sync();
 *
 * bsp_hpget is UNBUFFERED ON SOURCE (paper section 3.3): it may read `contrib` on the remote
 * process at any moment between the call and the end of the superstep, so "no process should
 * change the source data structures used during the course of the superstep". Whether a get
 * reads the old or the new contribution depends on the order in which the processes run and on
 * when each hpget takes effect. On a machine where gets complete quickly the program "works";
 * under bsp-check some seeds make a get land after its owner updated `contrib`, the sum comes out
 * wrong, and the program's own check calls bsp_abort. Only the last process's contribution
 * changes from step to step, so only gets aimed at it can go wrong, and not under every seed.
 * (A plain bsp_get would be wrong under every schedule: it reads its source at the end of the
 * superstep, after the update.)
 *
 * THE FIX: never write the source of a bsp_hpget in a superstep in which some process may read
 * it. Double-buffer: register two variables and alternate, reading one while updating the other;
 * or write the value one superstep before it is fetched (as the paper's bsp_sum does: compute,
 * bsp_sync, then hpget). Merely moving the update after this bsp_sync is NOT a fix: the next
 * superstep's hpgets of other processes may already be in flight when it runs.
 *
 *   bsp-check run -p 4 --seeds 20 ./sum_hp_race    -> reports the first failing seed, exit 1
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

enum { STEPS = 2 };

/* Process s's contribution in step t. Only the last process's contribution changes. */
static int contribution(int s, int p, int t) { return s == p - 1 ? 10 * (t + 1) : s + 1; }

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *sums = calloc((size_t)p, sizeof(int));
  int *counts = calloc((size_t)p, sizeof(int));
  if (sums == NULL || counts == NULL) bsp_abort("sum_hp_race: no memory");

  int contrib = contribution(s, p, 0);
  int count = s + 1; /* this process's number of elements: never changes */
  bsp_push_reg(&contrib, sizeof(int));
  bsp_push_reg(&count, sizeof(int));
  bsp_sync();

  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < p; i++) bsp_hpget(i, &contrib, 0, &sums[i], sizeof(int));
    for (int i = 0; i < p; i++) bsp_hpget(i, &count, 0, &counts[i], sizeof(int));
    contrib = contribution(s, p, step + 1); /* BUG: still the source of remote hpgets */
    bsp_sync();

    int total = 0, expected = 0, n = 0;
    for (int i = 0; i < p; i++) {
      total += sums[i];
      expected += contribution(i, p, step);
      n += counts[i];
    }
    if (total != expected)
      bsp_abort("sum_hp_race: pid %d step %d: global sum %d, expected %d", s, step, total,
                expected);
    printf("sum_hp_race: pid %d step %d sum %d mean %.3f\n", s, step, total, (double)total / n);
  }

  bsp_pop_reg(&count);
  bsp_pop_reg(&contrib);
  bsp_sync();
  free(sums);
  free(counts);
  bsp_end();
  return 0;
}
