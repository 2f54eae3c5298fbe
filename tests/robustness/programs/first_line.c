/* Process 0 prints the first line of its standard input ("got LINE"), then every process syncs. */
#include <bsp.h>
#include <stdio.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    char line[100];
    if (fgets(line, sizeof line, stdin)) printf("got %s", line);
  }
  bsp_sync();
  bsp_end();
  return 0;
}
