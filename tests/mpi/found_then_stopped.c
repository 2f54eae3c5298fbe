/* found_then_stopped.c: every process makes a finding that does not end the job (a put to a
 * process that does not exist), then the job is stopped before its ranks can gather their
 * findings into the one report (report=PATH):
 *   hang   the last process never reaches the next sync: the launcher's timeout kills the job;
 *   crash  the last process dies of SIGSEGV: it ends the job alone, with its own findings.
 * The other ranks' findings must survive in their partial reports (PATH.rank<K>), which
 * `bsp-check merge PATH` joins (docs/mpi.md, "One report per job"). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bsp.h"

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid(), x = -1;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  bsp_put(p + s, &s, &x, 0, sizeof s); /* BUG: bad-pid @ superstep 1, process any */
  bsp_sync();
  if (s == p - 1) {
    if (argc > 1 && strcmp(argv[1], "crash") == 0) raise(SIGSEGV);
    for (;;) pause();
  }
  bsp_sync();
  bsp_end();
  return 0;
}
