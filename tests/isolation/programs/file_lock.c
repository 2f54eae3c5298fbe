/* The file as a critical section, as an independent BSPlib's test suite does it: in turn, process
 * k checks that the lock file is absent, creates it, and removes it a superstep later; every
 * process checks that the file exists exactly while its holder holds it.
 * Runs that share a working directory (side by side with -j, or one after another when a run
 * leaves the file behind) see each other's file and fail. */
#include <bsp.h>
#include <stdio.h>
#include <unistd.h>

static const char* kLock = "bsp-check-isolation.lock";

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  for (int k = 0; k < p; ++k) {
    if (s == k) {
      if (access(kLock, F_OK) == 0) bsp_abort("process %d: the lock file exists before it takes it\n", s);
      FILE* f = fopen(kLock, "wx");
      if (!f) bsp_abort("process %d: cannot create the lock file\n", s);
      fprintf(f, "%d\n", s);
      fclose(f);
    }
    bsp_sync();
    if (access(kLock, F_OK) != 0) bsp_abort("process %d: process %d's lock file is absent\n", s, k);
    bsp_sync();
    if (s == k && unlink(kLock) != 0) bsp_abort("process %d: its lock file is gone\n", s);
    bsp_sync();
    if (access(kLock, F_OK) == 0) bsp_abort("process %d: the lock file is there after process %d left\n", s, k);
    bsp_sync();
  }
  bsp_end();
  return 0;
}
