/* rand_reference.c: what one separate OS process prints for `srand(1000 + pid); rand(); rand()`
 * (the C library alone, no BSPlib): the privatisation test compares every BSP process with it. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int pid = argc > 1 ? atoi(argv[1]) : 0;
  srand(1000 + pid);
  int first = rand();
  int second = rand();
  printf("%d %d\n", first, second);
  return 0;
}
