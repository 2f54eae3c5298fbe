/* after_end.c: a program that misbehaves after bsp_end. Argument "call": a BSPlib primitive
 * after bsp_end, 200 times in a loop (api-misuse, reported once); "crash": a segmentation fault
 * after bsp_end (crash). Either must be a finding in every report format, located at a file and
 * line. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bsp.h"

int main(int argc, char **argv) {
  const int crash = argc > 1 && strcmp(argv[1], "crash") == 0;
  bsp_begin(bsp_nprocs());
  bsp_sync();
  bsp_end(); /* AT: crash */
  if (crash) raise(SIGSEGV);
  int sum = 0;
  for (int i = 0; i < 200; ++i) sum += bsp_pid(); /* AT: api-misuse */
  printf("after_end: %d\n", sum);
  return 0;
}
