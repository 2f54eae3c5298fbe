/* unfinished_line.c: process 0 leaves its line unfinished at bsp_end and finishes it after, as
 * in a separate process: "a0b0" then "\nend\n" make the line "a0b0", not "a0b0" and an empty
 * one. The other processes' unfinished lines end with them. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
  printf("a%d", pid);
  bsp_sync();
  printf("b%d", pid);
  bsp_end();
  printf("\nend\n");
  return 0;
}
