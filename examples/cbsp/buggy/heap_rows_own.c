/* heap_rows_own.c: the buggy twin of heap_rows.c that skips telling the addresses: each process
 * sends into its neighbours' halo rows at the address of its OWN halo rows, as if every process's
 * heap had the same layout. An address in the sender's heap names nothing on the receiver (under
 * bsp-check, where the processes share one address space, it would overwrite the sender's own
 * rows). Fix: let the receiver tell the sender its address (heap_rows.c).
 *
 * heap_rows.c: cBSP sends into the receiver's heap. The paper's ocean code keeps its grid in
 * dynamically allocated arrays; a cBSP_send's destAddr is "a remote virtual address" on the
 * receiving node, so a receiver allocates its halo rows and tells each neighbour where they are.
 *
 * Each process allocates a grid of ROWS rows plus two halo rows (one from each neighbour), sends
 * the addresses of its halo rows to its neighbours (superstep 0, into globals), then for STEPS
 * supersteps sends its first and last rows straight into the neighbours' halo rows and smooths
 * its grid. Each process checks its result against the same computation done sequentially. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#include "cbsp.h"

#define COLS 8
#define ROWS 4
#define STEPS 5

/* Where my neighbours want my rows (the addresses they told me): my last row goes to to_right on
 * my right neighbour, my first row to to_left on my left one. */
static double *to_left, *to_right;

static double start_value(int row, int col) { return (double)((row * 7 + col * 3) % 11); }

/* The whole grid smoothed sequentially, row `global_row`, column `col`, after `steps` steps. */
static double expected(int p, int global_row, int col) {
  int n = p * ROWS;
  double *a = malloc(sizeof(double) * (size_t)n * COLS), *b = malloc(sizeof(double) * (size_t)n * COLS);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < COLS; ++c) a[r * COLS + c] = start_value(r, c);
  for (int s = 0; s < STEPS; ++s) {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < COLS; ++c) {
        double up = a[((r + n - 1) % n) * COLS + c], down = a[((r + 1) % n) * COLS + c];
        b[r * COLS + c] = (up + 2 * a[r * COLS + c] + down) / 4;
      }
    double *t = a;
    a = b;
    b = t;
  }
  double v = a[global_row * COLS + col];
  free(a);
  free(b);
  return v;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  int left = (me + p - 1) % p, right = (me + 1) % p;
  /* Row 0 is the halo from the left, rows 1..ROWS are mine, row ROWS+1 the halo from the right. */
  double *grid = malloc(sizeof(double) * (ROWS + 2) * COLS);
  double *next = malloc(sizeof(double) * (ROWS + 2) * COLS);
  for (int r = 1; r <= ROWS; ++r)
    for (int c = 0; c < COLS; ++c) grid[r * COLS + c] = start_value(me * ROWS + r - 1, c);

  /* Tell the neighbours where their rows go: my left neighbour's last row lands in my row 0,
   * my right neighbour's first row in my row ROWS+1. */
  double *halo_from_left = grid, *halo_from_right = grid + (ROWS + 1) * COLS;
  to_right = halo_from_left; /* my own rows: the neighbours' are elsewhere */
  to_left = halo_from_right;

  for (int s = 0; s < STEPS; ++s) {
    cBSP_send(right, to_right, grid + ROWS * COLS, sizeof(double) * COLS, NULL); /* BUG: cbsp-dest-not-global @ superstep 0, process 0 */
    cBSP_send(left, to_left, grid + 1 * COLS, sizeof(double) * COLS, NULL);
    cBSP_nsync(2);
    for (int r = 1; r <= ROWS; ++r)
      for (int c = 0; c < COLS; ++c)
        next[r * COLS + c] = (grid[(r - 1) * COLS + c] + 2 * grid[r * COLS + c] + grid[(r + 1) * COLS + c]) / 4;
    /* The halo rows stay where the neighbours were told they are: copy back, do not swap. */
    for (int r = 1; r <= ROWS; ++r)
      for (int c = 0; c < COLS; ++c) grid[r * COLS + c] = next[r * COLS + c];
    /* Everyone has read its halo rows before they are written again. */
    cBSP_gsync();
  }

  for (int r = 1; r <= ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      if (grid[r * COLS + c] != expected(p, me * ROWS + r - 1, c))
        bsp_abort("process %d: row %d column %d is %g, expected %g\n", me, r, c, grid[r * COLS + c],
                  expected(p, me * ROWS + r - 1, c));
  printf("heap_rows: process %d: %d rows correct after %d steps\n", me, ROWS, STEPS);
  free(next);
  free(grid);
  bsp_end();
  return 0;
}
