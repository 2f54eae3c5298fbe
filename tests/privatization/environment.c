/* environment.c: each process's environment is its own, as with separate processes: setenv,
 * putenv and unsetenv in one process are not seen by the others, whatever runs in between, and
 * variables added superstep after superstep (the C library would grow one shared array) stay the
 * adding process's. BSPCHECK_TEST_VAR is set by the test before the run. Built twice: as it is,
 * and with -DUSE_ENVIRON, which refers to `environ` (so that the executable holds it). */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"

#ifdef USE_ENVIRON
extern char **environ;
#endif

int main(void) {
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid(), p = bsp_nprocs();
  char value[16], name[32];
  snprintf(value, sizeof value, "%d", pid);
  setenv("RANK", value, 1);
  char *put = malloc(32);
  snprintf(put, 32, "PUT_RANK=%d", pid);
  putenv(put);
  if (pid % 2) {
    unsetenv("BSPCHECK_TEST_VAR");
  } else {
    snprintf(value, sizeof value, "p%d", pid);
    setenv("BSPCHECK_TEST_VAR", value, 1);
  }
  bsp_sync();
  for (int i = 0; i < 20; ++i) {
    snprintf(name, sizeof name, "X_%d_%d", pid, i);
    setenv(name, "1", 0);
    bsp_sync();
  }
  int own = 0, others = 0;
  for (int q = 0; q < p; ++q)
    for (int i = 0; i < 20; ++i) {
      snprintf(name, sizeof name, "X_%d_%d", q, i);
      if (getenv(name)) ++*(q == pid ? &own : &others);
    }
  const char *rank = getenv("RANK"), *put_rank = getenv("PUT_RANK"), *var = getenv("BSPCHECK_TEST_VAR");
  int entries = 0;
#ifdef USE_ENVIRON
  for (char **e = environ; e && *e; ++e) ++entries;
#endif
  printf("process %d: RANK=%s PUT_RANK=%s VAR=%s own=%d others=%d entries=%d\n", pid, rank ? rank : "(unset)",
         put_rank ? put_rank : "(unset)", var ? var : "(unset)", own, others, entries);
  bsp_sync();
  bsp_end();
  return 0;
}
