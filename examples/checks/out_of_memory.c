/* out_of_memory.c: a process runs out of memory and uses the NULL that malloc returned.
 *
 * Each process allocates a buffer for the elements it receives: the count is computed from the
 * processes after it, which is negative on the last process. Converted to size_t, the negative
 * count asks malloc for about 2^64 bytes, malloc fails and returns NULL (setting errno to
 * ENOMEM), and the process writes through it. bsp-check reports `out-of-memory` at the line that
 * used the pointer, with the stack; a C++ allocation that throws std::bad_alloc which nothing
 * catches is reported at the line that allocated.
 * Fix: compute the count right, and check what malloc returns: see out_of_memory_ok.c. */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

/* Under AddressSanitizer, a failed malloc returns NULL as the C library's does (ASan's default
 * is to stop the program with a report of its own). */
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  long count = (long)(p - 1 - s) * 1000 - 1; /* the bug: -1 on the last process */
  double *buffer = malloc((size_t)count * sizeof(double));
  buffer[0] = s; /* BUG: out-of-memory @ superstep 0, process last */
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
    printf("%s: sum of first elements %g\n", "out_of_memory", sum);
  }
  free(buffer);
  bsp_end();
  return 0;
}
