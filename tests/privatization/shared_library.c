/* shared_library.c: the processes keep a count in a shared library's global (libcounter.so).
 * bsp-check can make the executable's globals private but not a loaded library's data, so the
 * processes share lib_counter here while separate processes would not: rule global-shared must
 * name the variable and the processes that wrote it. */
#include <bsp.h>
#include <stdio.h>

void lib_bump(int by);
int lib_value(void);

int main(void) {
  bsp_begin(bsp_nprocs());
  lib_bump(bsp_pid() + 1);
  bsp_sync();
  printf("process %d: counter %d\n", bsp_pid(), lib_value());
  bsp_end();
  return 0;
}
