/* init_style.c: a bsp_init program. main sets a global after bsp_init; process 0 continues main's
 * thread and sees the new value, processes 1..p-1 see the value of the bsp_init call (BSPlib 2.1
 * (4): the environment of process 0 is not inherited), and bsp-check notes the difference. */
#include <bsp.h>
#include <stdio.h>

int problem_size = 10;

static void spmd(void) {
  bsp_begin(bsp_nprocs());
  printf("process %d: problem_size %d\n", bsp_pid(), problem_size);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  problem_size = 99;
  spmd();
  return 0;
}
