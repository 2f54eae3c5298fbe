/* buggy/ring_hp_race.c: a ring pipeline with a REAL race on a bsp_hpget source. bsp-check finds
 * it under some seeds, not all.
 *
 * The processes form a ring; each holds a block of cells of a periodic 1-D domain and a `carry`
 * value that it hands to its right neighbour every step. In each step a process
 *   1. fetches its left neighbour's carry with the fast, unbuffered bsp_hpget,
 *   2. sends its two boundary cells to its neighbours' ghost cells with bsp_put,
 *   3. prepares its carry for the next step, and synchronises.
 * Step 3 is the bug:
 *
 *     bsp_hpget(left, &carry, 0, &incoming, sizeof(int));
 *     bsp_put(left, ...);  bsp_put(right, ...);
 *     carry = next_carry(s, step);                  <-- BUG
 *     bsp_sync();
 *
 * bsp_hpget is UNBUFFERED ON SOURCE (paper section 3.3): it may read `carry` on the left neighbour
 * at any moment between the call and the end of the superstep, so "no process should change the
 * source data structures used during the course of the superstep". If the right neighbour's get
 * happens to take effect before the owner reaches step 3, all is well; if not, it reads the next
 * step's carry. Which happens depends on the order in which the processes run and on when each
 * hpget takes effect: on a machine where gets complete quickly the program seems to work. Under
 * bsp-check some seeds make the get land late; the program's own check then calls bsp_abort.
 * (A plain bsp_get would fail under every schedule: it reads its source at the end of the
 * superstep, after the update.)
 *
 * THE FIX: never write the source of a bsp_hpget in a superstep in which another process may read
 * it. Double-buffer the carry (register carry[2]; in step t the neighbour reads carry[t % 2] while
 * the owner writes carry[(t + 1) % 2]), or update it after the bsp_sync and fetch it only in the
 * superstep after that. ../ring_hp.c is this program with the double-buffered fix.
 *
 *   bsp-check run -p 4 --seeds 20 ./ring_hp_race    -> reports the first failing seed, exit 1
 *
 * Output of a run that gets through: one line per process s,
 *   ring: pid s received C1 C2 ... cells U1 U2 ...
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

enum { STEPS = 2, NLOC = 3 };

/* The carry process s hands on in step t. */
static int next_carry(int s, int t) { return 100 * s + t; }

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int left = (s + p - 1) % p, right = (s + 1) % p;

  /* cells[0] and cells[NLOC + 1] are ghost cells, written by the neighbours. */
  int cells[NLOC + 2];
  for (int i = 1; i <= NLOC; i++) cells[i] = s * NLOC + i;
  int carry = next_carry(s, 0), incoming = -1;
  int received[STEPS];
  bsp_push_reg(&carry, sizeof(int));
  bsp_push_reg(cells, sizeof cells);
  bsp_sync();

  for (int step = 0; step < STEPS; step++) {
    bsp_hpget(left, &carry, 0, &incoming, sizeof(int));
    bsp_put(left, &cells[1], cells, (NLOC + 1) * (int)sizeof(int), sizeof(int));
    bsp_put(right, &cells[NLOC], cells, 0, sizeof(int));
    carry = next_carry(s, step + 1); /* BUG: the right neighbour's hpget may not have read it yet */
    bsp_sync();

    if (incoming != next_carry(left, step))
      bsp_abort("ring: pid %d step %d received carry %d from pid %d, expected %d", s, step,
                incoming, left, next_carry(left, step));
    received[step] = incoming;
    /* Advect: every cell takes its left neighbour's value, plus the right one's. */
    int next[NLOC + 2];
    for (int i = 1; i <= NLOC; i++) next[i] = cells[i - 1] + cells[i + 1];
    for (int i = 1; i <= NLOC; i++) cells[i] = next[i];
  }

  printf("ring: pid %d received", s);
  for (int t = 0; t < STEPS; t++) printf(" %d", received[t]);
  printf(" cells");
  for (int i = 1; i <= NLOC; i++) printf(" %d", cells[i]);
  printf("\n");

  bsp_pop_reg(cells);
  bsp_pop_reg(&carry);
  bsp_sync();
  bsp_end();
  return 0;
}
