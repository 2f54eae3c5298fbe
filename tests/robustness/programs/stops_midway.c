/* stops_midway.c: process 1 stops in the middle of the SPMD part, in a helper function, as the
 * first argument says: "crash" (a null pointer), "exit" (exit()), "term" or "usr1" (raise of a
 * signal whose default action ends the process). The findings must name the helper's line
 * (CRASH, EXIT, RAISE), with the stack to main, and process 1's last BSPlib call (LAST). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

static int read_through(volatile int *p) { return *p; /* CRASH */ }

static void give_up(int status) {
  fflush(stdout);
  exit(status); /* EXIT */
}

static void send_itself(int sig) {
  fflush(stdout);
  raise(sig); /* RAISE */
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
  int value = pid;
  bsp_sync(); /* LAST */
  if (pid == 1 && strcmp(how, "crash") == 0) value = read_through(NULL);
  if (pid == 1 && strcmp(how, "exit") == 0) give_up(3);
  if (pid == 1 && strcmp(how, "term") == 0) send_itself(SIGTERM);
  if (pid == 1 && strcmp(how, "usr1") == 0) send_itself(SIGUSR1);
  printf("process %d: %d\n", pid, value);
  bsp_sync();
  bsp_end();
  return 0;
}
