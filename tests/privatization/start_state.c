/* start_state.c: what main does to the C library before bsp_begin, in the SPMD style. Under an
 * MPI-based BSPlib every process runs main from the program's start, so each one's first rand()
 * and drand48() give the generators' first values, and each appends to the environment it
 * started with once. Every process prints what it saw: the lines must all be the same. Built
 * twice: as it is, and with -DUSE_BSP_INIT (the bsp_init style, where the processes start from
 * what main made of the C library when it called bsp_init: here, the program's start too). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

static int first_rand;
static double first_drand;
static char list[256];

static void spmd(void) {
  bsp_begin(bsp_nprocs());
#ifdef USE_BSP_INIT
  /* bsp_init style: the values below are taken by each process in its SPMD part */
  first_rand = rand();
  first_drand = drand48();
  snprintf(list, sizeof list, "%s:extra", getenv("START_STATE_LIST") ? getenv("START_STATE_LIST") : "");
  setenv("START_STATE_LIST", list, 1);
#endif
  printf("process %d: rand %d drand48 %.17g list %s\n", bsp_pid(), first_rand, first_drand,
         getenv("START_STATE_LIST"));
  bsp_end();
}

int main(int argc, char **argv) {
#ifdef USE_BSP_INIT
  bsp_init(spmd, argc, argv);
#else
  (void)argc;
  (void)argv;
  first_rand = rand();
  first_drand = drand48();
  snprintf(list, sizeof list, "%s:extra", getenv("START_STATE_LIST") ? getenv("START_STATE_LIST") : "");
  setenv("START_STATE_LIST", list, 1);
#endif
  spmd();
  return 0;
}
