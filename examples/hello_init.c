/* hello_init.c: the paper's second example (section 2.2.2), in the bsp_init style.
 *
 * A single process starts main, calls bsp_init first, decides how many processes it wants and
 * then calls spmd_part, whose first statement is bsp_begin. The other processes start directly in
 * spmd_part. Unlike the paper, nothing is read from standard input: the number of processes comes
 * from the optional first argument, and defaults to every available processor.
 *
 *   bsp-check run -p 8 ./hello_init 3      (grants min(3, 8) = 3 processes)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

/* Set by process 0 after bsp_init. Each process has its own globals, and the environment of
 * process 0 is not inherited by the others (BSPlib 2.1 (4)): processes 1..p-1 see the value the
 * variable had when bsp_init was called, 0, as under any BSPlib whose processes are OS processes. */
static int nprocs;

static void spmd_part(void) {
  bsp_begin(nprocs);
  printf("Hello BSP Worldwide from process %d of %d (requested %d)\n", bsp_pid(), bsp_nprocs(),
         nprocs);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd_part, argc, argv);
  nprocs = bsp_nprocs(); /* before bsp_begin: the number of processors available */
  if (argc > 1) {
    int wanted = atoi(argv[1]);
    if (wanted < 1) {
      fprintf(stderr, "usage: %s [nprocs >= 1]\n", argv[0]);
      return 2;
    }
    nprocs = wanted;
  }
  spmd_part();
  return 0;
}
