/* deep_recursion.c: process argv[2] (default: every process) recurses argv[1] levels deep, each
 * level holding 1 KiB of stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

static int down(int n) {
  volatile char frame[1024];
  memset((char *)frame, n & 0x7f, sizeof frame);
  return n == 0 ? frame[1] : down(n - 1) + frame[2];
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int depth = argc > 1 ? atoi(argv[1]) : 1000;
  int who = argc > 2 ? atoi(argv[2]) : -1;
  int r = (who < 0 || who == bsp_pid()) ? down(depth) : 0;
  bsp_sync();
  if (bsp_pid() == 0) printf("deep_recursion: done %d\n", r > 0);
  bsp_end();
  return 0;
}
