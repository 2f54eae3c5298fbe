/* bench_cbsp_chain.c: a cBSP_gsync that delivers to quiescence through a chain of p - 1 handler
 * hops. Process 0 sends a token to process 1, whose handler forwards it to 2, and so on, all
 * inside one cBSP_gsync: p rounds of deliveries, each of which every process takes part in. What
 * a gsync costs per round and process, at large p (engine/systems/cbsp_runtime.cpp). Timed from outside:
 *
 *   BSPCHECK_OPTIONS=procs=1000:seed=1 build/bench/bench_cbsp_chain 2
 *
 * The argument is the number of chains (gsyncs) to run; each is checked.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#include "cbsp.h"

static int token;
static int hops;

static void forward(int src, void *dest, int nbytes) {
  int me = bsp_pid();
  (void)src;
  ++hops;
  if (me + 1 < bsp_nprocs()) cBSP_send(me + 1, dest, dest, nbytes, forward);
}

int main(int argc, char **argv) {
  int chains = argc > 1 ? atoi(argv[1]) : 1;
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  int me = bsp_pid(), p = bsp_nprocs();
  for (int c = 1; c <= chains; ++c) {
    if (me == 0) {
      token = c;
      if (p > 1) cBSP_send(1, &token, &token, sizeof token, forward);
    }
    cBSP_gsync();
    if (token != c || hops != (me > 0 ? c : 0)) bsp_abort("process %d: token %d, %d hops after chain %d\n", me, token, hops, c);
  }
  if (me == 0) printf("bench_cbsp_chain: %d chains through %d processes\n", chains, p);
  bsp_end();
  return 0;
}
