/* out_of_memory_ok.c: the correct twin of out_of_memory.c: every process's count is at least
 * one, and what malloc returns is checked. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  long count = (long)(p - s) * 1000; /* at least 1000 on every process */
  double *buffer = malloc((size_t)count * sizeof(double));
  if (!buffer) bsp_abort("out_of_memory_ok: cannot allocate %ld doubles\n", count);
  buffer[0] = s;
  bsp_send(0, NULL, buffer, sizeof(double)); /* process 0 sums the first elements */
  bsp_sync();
  if (s == 0) {
    int messages = 0, bytes = 0;
    double first = 0, sum = 0;
    bsp_qsize(&messages, &bytes);
    for (int i = 0; i < messages; i++) {
      bsp_move(&first, sizeof first);
      sum += first;
    }
    printf("%s: sum of first elements %g\n", "out_of_memory_ok", sum);
  }
  free(buffer);
  bsp_end();
  return 0;
}
