/* A finding, then the run is killed from outside (here by itself with SIGKILL, which no handler
 * sees: as the kernel's out-of-memory killer would). The reports must keep the finding. */
#include <signal.h>
#include <unistd.h>

#include <bsp.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  int x = 0;
  long big[2] = {1, 2};
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  if (bsp_pid() == 0) bsp_put(bsp_nprocs() - 1, big, &x, 0, sizeof big); /* BUG: bounds-put */
  bsp_sync();
  if (bsp_pid() == 0) kill(getpid(), SIGKILL); /* KILLED */
  bsp_sync();
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
