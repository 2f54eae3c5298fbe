/* Sends different bytes in every other run: each run counts itself in the file argv[1], and
 * process 0 sends whether its count is even. bsp-check's determinism self-check compares two
 * recorded runs of one seed (runs n and n + 1), so it sees them part; the replay it makes of the
 * first of them to find the line is run n + 2, which sends what run n did: the difference does
 * not recur, and the finding must say why it has no line. */
#include <stdio.h>

#include <bsp.h>

static int count_run(const char* path) {
  int n = 0;
  FILE* f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%d", &n) != 1) n = 0;
    fclose(f);
  }
  f = fopen(path, "w");
  if (f) {
    fprintf(f, "%d\n", n + 1);
    fclose(f);
  }
  return n + 1;
}

int main(int argc, char** argv) {
  bsp_begin(bsp_nprocs());
  int value = 0, got = 0;
  bsp_push_reg(&got, sizeof got);
  bsp_sync();
  if (bsp_pid() == 0) {
    value = argc > 1 && count_run(argv[1]) % 2 == 0;
    bsp_put(1 % bsp_nprocs(), &value, &got, 0, sizeof value); /* SENDS */
  }
  bsp_sync();
  bsp_pop_reg(&got);
  bsp_end();
  return 0;
}
