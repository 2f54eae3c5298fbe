/* What a process may do to its own stdout, as a separate process may: stdio_own CASE [DIR]
   freopen   each process sends its stdout to DIR/log_<pid>.txt (a log per process)
   fclose    each process closes stdout at its end, after its last line (gnulib's close_stdout)
   setvbuf   full buffering with a buffer in the process's own globals
   fileno    the descriptor behind stdout, and whether write(2) to it works */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bsp.h"
static char buffer[BUFSIZ];
int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  bsp_begin(bsp_nprocs());
  const int s = bsp_pid();
  if (strcmp(what, "freopen") == 0) {
    char name[4096];
    snprintf(name, sizeof name, "%s/log_%d.txt", argc > 2 ? argv[2] : ".", s);
    if (!freopen(name, "w", stdout)) bsp_abort("freopen %s failed\n", name);
    printf("process %d logs here\n", s);
    bsp_sync();
    printf("process %d again\n", s);
    fflush(stdout);
  } else if (strcmp(what, "fclose") == 0) {
    printf("process %d done\n", s);
    bsp_sync();
    if (fclose(stdout) != 0) bsp_abort("fclose(stdout) failed\n");
  } else if (strcmp(what, "setvbuf") == 0) {
    if (setvbuf(stdout, buffer, _IOFBF, sizeof buffer) != 0) bsp_abort("setvbuf failed\n");
    printf("p%d hello\n", s);
    bsp_sync();
    printf("p%d world\n", s);
  } else if (strcmp(what, "fileno") == 0) {
    char line[64];
    const int n = snprintf(line, sizeof line, "process %d writes to fd %d\n", s, fileno(stdout));
    bsp_sync();
    if (write(fileno(stdout), line, (size_t)n) != n) bsp_abort("write to fileno(stdout) failed\n");
  }
  bsp_sync();
  bsp_end();
  return 0;
}
