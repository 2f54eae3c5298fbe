/* A program that takes a while: 30 supersteps of 20 ms per process. Interrupt tests stop it. */
#include <bsp.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  for (int i = 0; i < 30; ++i) {
    usleep(20000);
    bsp_sync();
  }
  bsp_end();
  return 0;
}
