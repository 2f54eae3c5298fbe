/* random_state.c: initstate and setstate act on the process's own generator, as in a separate
 * process. Built twice: as a BSP program, and with -DREFERENCE as a plain program that prints
 * what one separate process prints for the pid given as its argument. */
#include <stdio.h>
#include <stdlib.h>

#ifdef REFERENCE
#define SYNC() ((void)0)
#else
#include "bsp.h"
#define SYNC() bsp_sync()
#endif

int main(int argc, char **argv) {
#ifdef REFERENCE
  const int pid = argc > 1 ? atoi(argv[1]) : 0;
#else
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
#endif
  char state[256];
  char *previous = initstate(1000 + pid, state, sizeof state);
  SYNC();
  const long a = random();
  SYNC();
  const long b = random();
  char *mine = setstate(previous); /* back to the generator of the program's start */
  SYNC();
  const long c = random();
  SYNC();
  setstate(mine);
  const long d = random();
  srandom(7 + pid); /* reseeds the 256-byte state */
  SYNC();
  const long e = random();
  printf("process %d: %ld %ld %ld %ld %ld %d\n", pid, a, b, c, d, e, mine == state);
#ifndef REFERENCE
  bsp_end();
#endif
  return 0;
}
