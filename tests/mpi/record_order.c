/* record_order.c: a program whose output depends on the order of process 0's queue and on which
 * of colliding puts lands last (tests/mpi, mpi_run.py's record test). Under MPI the higher ranks
 * send first in real time (usleep), so arrival order alone would reverse the queue; the record
 * keeps the order the run delivered, and the engine's replay must print the same lines and the
 * same put-collision. With the argument "extra", process 1 sends one more message: a changed
 * program, whose replay diverges at that call. */
#include <bsp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const int extra = argc > 1 && strcmp(argv[1], "extra") == 0;
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  int last = -1;
  bsp_push_reg(&last, sizeof last);
  bsp_sync();
  usleep(20000 * (unsigned)(p - s)); /* rank p-1 first */
  int value = 10 * s;
  bsp_send(0, NULL, &value, sizeof value);
  if (extra && s == 1) bsp_send(0, NULL, &value, sizeof value);
  bsp_put(0, &s, &last, 0, sizeof s); /* every process writes process 0's last: put-collision */
  bsp_sync();
  if (s == 0) {
    int n = 0, bytes = 0;
    bsp_qsize(&n, &bytes);
    char line[256] = "order:";
    for (int i = 0; i < n; ++i) {
      int v;
      bsp_move(&v, sizeof v);
      snprintf(line + strlen(line), sizeof line - strlen(line), " %d", v);
    }
    printf("%s\nlast: %d\n", line, last);
  }
  bsp_pop_reg(&last);
  bsp_end();
  return 0;
}
