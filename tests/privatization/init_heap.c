/* init_heap.c: a bsp_init program whose main allocates a buffer before bsp_init (against BSPlib
 * 2.1 (6), which has bsp_init be main's first statement). Every process starts with that pointer,
 * so they share the block: bsp-check cannot copy it, and notes the global that points at it. Only
 * process 0 writes it here, so the program is correct. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

int *work;

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) work[0] = 42;
  bsp_sync();
  printf("process %d: done\n", bsp_pid());
  bsp_end();
}

int main(int argc, char **argv) {
  work = malloc(4 * sizeof *work);
  bsp_init(spmd, argc, argv);
  spmd();
  free(work);
  return 0;
}
