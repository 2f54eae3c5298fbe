/* no_end.c: process 0 leaves the SPMD part without bsp_end: it returns from main, or, with the
 * argument "exit", calls exit(). Either is a superstep-mismatch finding located at process 0's
 * last BSPlib call (LAST); the exit at its line (EXIT) too. */
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
  bsp_sync(); /* LAST */
  if (pid == 0) {
    if (argc > 1 && strcmp(argv[1], "exit") == 0) exit(0); /* EXIT */
    return 0;
  }
  bsp_sync();
  bsp_end();
  return 0;
}
