/* Closes every descriptor above 2 in the middle of the run, as daemons and some test harnesses
 * do (argv[1]: "loop" closes each up to 1024, "range" calls close_range, "from" closefrom), then
 * goes on communicating and printing. bsp-check's own files (the trace it records, the globals'
 * memfd) must survive it, and the program's own numbering stays its own: its next file is 3. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bsp.h>

static int counter; /* a global: each process has its own copy (the globals' memfd) */

static void close_everything(const char* how) {
  if (strcmp(how, "range") == 0) close_range(3, ~0U, 0);
  else if (strcmp(how, "from") == 0) closefrom(3);
  else
    for (int fd = 3; fd < 1024; ++fd) close(fd);
}

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "loop";
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid(), got = -1;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  close_everything(how); /* every process, in superstep 1 */
  for (int step = 0; step < 3; ++step) {
    counter += s + 1;
    bsp_put((s + 1) % p, &counter, &got, 0, sizeof counter);
    bsp_sync();
  }
  int fd = open("/dev/null", O_RDONLY);
  printf("%d: got %d counter %d next fd %d\n", s, got, counter, fd);
  if (fd >= 0) close(fd);
  bsp_pop_reg(&got);
  bsp_end();
  return 0;
}
