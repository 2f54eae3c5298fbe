/* stops_midway.c: process 1 stops in the middle of the SPMD part, in a helper function, as the
 * first argument says: "crash" (a null pointer), "exit" (exit()). The findings must name the
 * helper's line (CRASH, EXIT), with the stack to main, and process 1's last BSPlib call (LAST). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

static int read_through(volatile int *p) { return *p; /* CRASH */ }

static void give_up(int status) {
  fflush(stdout);
  exit(status); /* EXIT */
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
  int value = pid;
  bsp_sync(); /* LAST */
  if (pid == 1 && strcmp(how, "crash") == 0) value = read_through(NULL);
  if (pid == 1 && strcmp(how, "exit") == 0) give_up(3);
  printf("process %d: %d\n", pid, value);
  bsp_sync();
  bsp_end();
  return 0;
}
