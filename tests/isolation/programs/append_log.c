/* Each process appends its own line to a log in the working directory and to one in the
 * temporary directory; after a sync, process 0 checks that each holds exactly the run's p lines,
 * one per process: no line of another run, beside it or before it. */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(const char* path, int p) {
  FILE* f = fopen(path, "r");
  if (!f) bsp_abort("cannot read %s\n", path);
  int seen[64] = {0}, lines = 0, who;
  char line[128];
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "line of process %d", &who) != 1 || who < 0 || who >= p || seen[who]++)
      bsp_abort("%s holds a line that is not this run's: %s", path, line);
    ++lines;
  }
  fclose(f);
  if (lines != p) bsp_abort("%s holds %d lines, not %d\n", path, lines, p);
}

int main(void) {
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs();
  char tmp_log[4096];
  const char* dir = getenv("TMPDIR");
  snprintf(tmp_log, sizeof tmp_log, "%s/bsp-check-isolation.log", dir && *dir ? dir : "/tmp");
  const char* logs[2] = {"bsp-check-isolation.log", tmp_log};
  for (int i = 0; i < 2; ++i) {
    FILE* f = fopen(logs[i], "a");
    if (!f) bsp_abort("cannot append to %s\n", logs[i]);
    fprintf(f, "line of process %d\n", bsp_pid());
    fclose(f);
  }
  bsp_sync();
  if (bsp_pid() == 0 && p <= 64)
    for (int i = 0; i < 2; ++i) check(logs[i], p);
  bsp_end();
  return 0;
}
