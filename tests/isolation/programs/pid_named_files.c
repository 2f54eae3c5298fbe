/* Each process writes a scratch file named after its getpid() and seeds rand with it, then prints
 * what it drew: under --stable-pid every process has an id of its own (no two files collide) and
 * the same in every run (the output is the same under every seed, and the determinism check
 * passes). It also signals itself through kill(getpid(), 0), which must reach the program. */
#include <bsp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  char name[64];
  snprintf(name, sizeof name, "scratch-%ld.txt", (long)getpid());
  FILE* f = fopen(name, "wx");
  if (!f) bsp_abort("process %d: %s exists: another process has the same id\n", bsp_pid(), name);
  fclose(f);
  if (kill(getpid(), 0) != 0) bsp_abort("process %d: kill(getpid(), 0) failed\n", bsp_pid());
  srand((unsigned)getpid());
  printf("process %d drew %d\n", bsp_pid(), rand());
  bsp_sync();
  bsp_end();
  return 0;
}
