/* process_exec.c: a process replaces itself with another program in the middle of the run.
 *
 * Process 0 hands the report to a helper program by exec, while the others go on to the next
 * bsp_sync: on a real machine process 0 is gone and they wait for it forever. bsp-check reports
 * `process-exec` at the exec call, which it does not make.
 * Fix: run the helper as a child (posix_spawn, system, or fork and exec in the child) and wait for
 * it: see process_exec_ok.c. */
#include <stdio.h>
#include <unistd.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  bsp_sync();
  if (s == 0) {
    fflush(stdout);
    execlp("true", "true", (char *)NULL); /* BUG: process-exec @ superstep 1, process 0 */
  }
  bsp_sync();
  printf("process_exec: pid %d done\n", s);
  bsp_end();
  return 0;
}
