/* Process 1 writes the OS process's id to the file argv[1] and waits for a signal from outside
 * (the test sends SIGUSR1, whose default action ends the process): not a crash of the program,
 * which did not send it; the driver names the signal. */
#include <bsp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  bsp_begin(bsp_nprocs());
  bsp_sync();
  if (bsp_pid() == 1 && argc > 1) {
    FILE* f = fopen(argv[1], "w");
    if (f) {
      fprintf(f, "%d\n", (int)getpid());
      fclose(f);
    }
    for (;;) pause();
  }
  bsp_sync();
  bsp_end();
  return 0;
}
