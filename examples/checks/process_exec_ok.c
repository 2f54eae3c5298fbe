/* process_exec_ok.c: the correct twin of process_exec.c: the helper program runs in a forked
 * child, which execs it, and process 0 waits for it; the child's output is the program's. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  bsp_sync();
  if (s == 0) {
    fflush(stdout);
    pid_t child = fork(); /* FIX */
    if (child == 0) {
      execlp("echo", "echo", "process_exec_ok: helper ran", (char *)NULL);
      _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) bsp_abort("process_exec_ok: the helper failed");
  }
  bsp_sync();
  printf("process_exec_ok: pid %d done\n", s);
  bsp_end();
  return 0;
}
