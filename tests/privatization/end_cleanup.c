/* end_cleanup.c: a C cleanup (GCC's cleanup attribute, built with -fexceptions) in each process's
 * SPMD function. A separate process ends its SPMD part by leaving that scope: the cleanup runs in
 * every process, processes 1..p-1 included, which bsp-check ends at bsp_end by unwinding their
 * stacks. Built also without -fexceptions and without unwind tables (END_CLEANUP_PLAIN): a C
 * program with no cleanup to run and no table to unwind with, whose processes end all the same. */
#include <bsp.h>
#include <stdio.h>

#ifndef END_CLEANUP_PLAIN
static void say_cleaned(int* pid) { printf("process %d: cleaned up\n", *pid); }
#define ENDS_WITH_CLEANUP __attribute__((cleanup(say_cleaned)))
#else
#define ENDS_WITH_CLEANUP
#endif

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  ENDS_WITH_CLEANUP int pid = bsp_pid();
  printf("process %d: began\n", pid);
  bsp_sync();
  bsp_end();
}

int main(int argc, char** argv) {
  bsp_init(spmd, argc, argv);
  spmd();
  return 0;
}
