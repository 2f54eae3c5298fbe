/* uninitialised_stack.c: right after bsp_begin, every process reads 64 KiB of an uninitialised
   local array (a bug of the kind bsp-check should make reproducible), counts its nonzero bytes and
   fills the array for whatever runs there next; every process prints its count. With the same
   bytes below main's frame in a plain run and in a worker of the fork server (zeros, on the main
   stack and on the fiber stacks), a seed prints the same in both. */
#include <bsp.h>
#include <stdio.h>

static __attribute__((noinline)) unsigned nonzero_below(void) {
  volatile unsigned char a[64 * 1024]; /* uninitialised on purpose */
  unsigned n = 0;
  for (unsigned i = 0; i < sizeof a; ++i) n += a[i] != 0;
  for (unsigned i = 0; i < sizeof a; ++i) a[i] = 0xa5;
  return n;
}

int main(void) {
  bsp_begin(bsp_nprocs());
  unsigned n = nonzero_below(); /* before any other call: nothing else has run below main's frame */
  printf("process %d: %u nonzero bytes below\n", bsp_pid(), n);
  bsp_end();
  return 0;
}
