/* crash_ok.c: the correct twin of crash.c: the table has an entry for every process (a ring). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int *partner_of(int *table, int n, int s) { return s < n ? &table[s] : NULL; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int *table = malloc((size_t)p * sizeof(int));
  for (int i = 0; i < p; i++) table[i] = (i + 1) % p; /* FIX: a ring */
  bsp_sync();
  volatile int *partner = partner_of(table, p, s);
  printf("crash_ok: pid %d partner %d\n", s, *partner);
  free(table);
  bsp_end();
  return 0;
}
