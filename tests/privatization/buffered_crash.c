/* buffered_crash.c: process 1 writes a line without its newline, then crashes in the next
 * superstep. As with a separate process whose stdout is a pipe, the text it wrote must not be
 * lost: it appears in the output, attributed to process 1, next to the crash finding. */
#include <bsp.h>
#include <signal.h>
#include <stdio.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 1) printf("partial output of process 1");
  bsp_sync();
  if (bsp_pid() == 1) raise(SIGSEGV);
  bsp_sync();
  bsp_end();
  return 0;
}
