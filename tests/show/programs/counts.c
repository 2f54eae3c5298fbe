/* counts.c: incoming message counts for bsp-check show's counting-synchronisation measure
 * (tests/show/measures_test.py). With p processes and argument n:
 *   superstep 0: every process sends one message to the next (ring), cBSP_nsync(1): every
 *                receiver gets 1, whatever n: known;
 *   superstep 1: every process but 0 sends n messages to process 0, cBSP_gsync: process 0 gets
 *                (p - 1) * n, which depends on the input: not known across runs with other n;
 *   superstep 2: nothing is sent (it ends at bsp_end): every count 0, known. */
#include <stdlib.h>

#include "bsp.h"
#include "cbsp.h"

static int ring, inbox[1024];

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1;
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  cBSP_send((me + 1) % p, &ring, &me, sizeof me, NULL);
  cBSP_nsync(1);
  for (int i = 0; me != 0 && i < n; ++i) cBSP_send(0, &inbox[me * n + i], &me, sizeof me, NULL);
  cBSP_gsync();
  bsp_end();
  return 0;
}
