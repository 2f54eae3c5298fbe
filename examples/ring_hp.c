/* ring_hp.c: the corrected twin of buggy/ring_hp_race.c.
 *
 * The processes form a ring; each holds a block of NLOC cells of a periodic 1-D domain and a
 * `carry` value that it hands to its right neighbour every step. In each step a process fetches
 * its left neighbour's carry with bsp_hpget, sends its boundary cells to its neighbours' ghost
 * cells with bsp_put, and prepares its next carry. The source of a bsp_hpget must not change
 * during the superstep of the hpget (unbuffered on source, paper section 3.3), so the carry is
 * double-buffered: the neighbour reads one slot while the owner writes the other.
 *
 * After the sync every cell becomes the sum of its two neighbours: globally, on the ring of
 * n = p * NLOC cells, u[g] <- u[g-1] + u[g+1], starting from u[g] = g + 1.
 * Output, one line per process s:
 *   ring: pid s received C0 C1 cells U1 U2 U3
 * where Ct = 100 * left + t (left = (s - 1) mod p) and U are the final cells of process s.
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
  /* Double buffer: in step t the right neighbour reads carry[t % 2] while this process writes
   * carry[(t + 1) % 2], which nobody reads before the next superstep. */
  int carry[2] = {next_carry(s, 0), -1}, incoming = -1;
  int received[STEPS];
  bsp_push_reg(carry, sizeof carry);
  bsp_push_reg(cells, sizeof cells);
  bsp_sync();

  for (int step = 0; step < STEPS; step++) {
    bsp_hpget(left, carry, (step % 2) * (int)sizeof(int), &incoming, sizeof(int));
    bsp_put(left, &cells[1], cells, (NLOC + 1) * (int)sizeof(int), sizeof(int));
    bsp_put(right, &cells[NLOC], cells, 0, sizeof(int));
    carry[(step + 1) % 2] = next_carry(s, step + 1); /* the other buffer: safe */
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
  bsp_pop_reg(carry);
  bsp_sync();
  bsp_end();
  return 0;
}
