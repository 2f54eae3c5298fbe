/* fork_child.c: each process forks a child that prints and exits (argv[1] "exit" ends it with
 * exit(), "_exit" or none with _exit). The child's line must reach the program's output; the
 * parent's run goes on. argv[1] "bsp", "sync" or "put" makes the child of process 1 call
 * bsp_pid, bsp_sync or bsp_put: a forked child is no BSP process, the call ends it, and the run
 * reports it (rule foreign-thread) at the parent's next bsp_sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bsp.h"

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "_exit";
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  int cell = 0;
  bsp_push_reg(&cell, sizeof cell);
  bsp_sync();
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    printf("child of pid %d\n", s);
    fflush(stdout);
    if (s == 1) {
      if (strcmp(how, "bsp") == 0) printf("child asks bsp_pid: %d\n", bsp_pid()); /* CHILD CALL: bsp */
      if (strcmp(how, "sync") == 0) bsp_sync();                                     /* CHILD CALL: sync */
      if (strcmp(how, "put") == 0) bsp_put(0, &s, &cell, 0, sizeof s);              /* CHILD CALL: put */
    }
    if (strcmp(how, "exit") == 0) exit(0);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  printf("parent pid %d: child status %d\n", s, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  bsp_sync();
  bsp_pop_reg(&cell);
  bsp_end();
  return 0;
}
