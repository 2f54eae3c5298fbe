/* crash.c: a process dies of a segmentation fault.
 *
 * Each process looks up the neighbour it exchanges with in a table of p - 1 entries; the last
 * process finds no entry and dereferences the NULL the lookup returns. bsp-check reports the
 * signal as `crash`, naming the process, the superstep, the LINE WHERE IT CRASHED (with the stack
 * to main) and its LAST BSPlib CALL (the two locations below); a stack overflow on the guard page
 * of a process's stack is reported as such (raise --stack-size).
 * Fix: do not dereference the NULL (here: give the last process a partner): see crash_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int *partner_of(int *table, int n, int s) { return s < n ? &table[s] : NULL; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *table = malloc((size_t)p * sizeof(int));
  for (int i = 0; i < p - 1; i++) table[i] = i + 1; /* a line: the last process has no partner */
  bsp_sync(); /* AT: crash @ superstep 1, process last (the last BSPlib call before the crash) */
  volatile int *partner = partner_of(table, p - 1, s);
  printf("crash: pid %d partner %d\n", s, *partner); /* BUG: crash @ superstep 1, process last (the dereference) */
  free(table);
  bsp_end();
  return 0;
}
