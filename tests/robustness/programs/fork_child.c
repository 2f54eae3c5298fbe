/* fork_child.c: each process forks a child that prints and exits (argv[1] "exit" ends it with
 * exit(), "bsp" makes it call bsp_pid, anything else _exit). The child's line must reach the
 * program's output; the parent's run goes on. */
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
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    printf("child of pid %d\n", s);
    fflush(stdout);
    if (strcmp(how, "bsp") == 0) printf("child asks bsp_pid: %d\n", bsp_pid());
    if (strcmp(how, "exit") == 0) exit(0);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  printf("parent pid %d: child status %d\n", s, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  bsp_sync();
  bsp_end();
  return 0;
}
