/* no_bsp_begin.c: a program linked with BSPlib that never calls bsp_begin is one sequential
 * process (BSPlib: bsp_begin and bsp_end bracket the SPMD part; bsp_nprocs may be asked before
 * it). It must run, and succeed, under bsp-check as it does anywhere else. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  int requested = 0;
  printf("How many processors do you want to use?\n");
  if (scanf("%d", &requested) != 1) requested = 1;
  /* A usage check that decides not to start the SPMD part at all. */
  printf("bsp_nprocs() before any bsp_begin offers %s\n", bsp_nprocs() >= 1 ? "at least one processor" : "none");
  printf("Nothing to do in parallel: exiting without bsp_begin.\n");
  return 0;
}
