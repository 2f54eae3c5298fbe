/* direct_get.c: MulticoreBSP for C's bsp_direct_get, as its users write it: every process sums
 * the squares of its cyclic share of 1..1000 into a local variable it registers; after a sync,
 * process 0 reads each other process's partial sum at once with bsp_direct_get (into its own
 * registered variable, as MulticoreBSP's examples do), and in the next superstep every process
 * reads its right neighbour's share count. Expected output: the same for every p. */
#include <mcbsp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int P; /* number of processors requested */

static void spmd(void) {
  bsp_begin(P);
  const bsp_pid_t p = bsp_nprocs(), s = bsp_pid();
  long partial = 0, count = 0;
  for (long i = s + 1; i <= 1000; i += p) {
    partial += i * i;
    ++count;
  }
  bsp_push_reg(&partial, sizeof partial);
  bsp_push_reg(&count, sizeof count);
  bsp_sync();

  if (s == 0) {
    long total = partial;
    for (bsp_pid_t t = 1; t < p; ++t) {
      bsp_direct_get(t, &partial, 0, &partial, sizeof partial);
      total += partial;
    }
    printf("Sum of squares 1..1000 gathered by bsp_direct_get: %ld\n", total);
  }
  bsp_sync();

  long right = -1;
  bsp_direct_get((s + 1) % p, &count, 0, &right, sizeof right);
  const long expected = (1000 - (long)((s + 1) % p) - 1) / (long)p + 1;
  bsp_sync();
  long wrong = right != expected, any_wrong = 0;
  bsp_push_reg(&any_wrong, sizeof any_wrong);
  bsp_sync();
  if (wrong) bsp_put(0, &wrong, &any_wrong, 0, sizeof wrong);
  bsp_sync();
  if (s == 0) printf("Every process read its right neighbour's share: %s\n", any_wrong ? "no" : "yes");
  bsp_pop_reg(&any_wrong);
  bsp_pop_reg(&count);
  bsp_pop_reg(&partial);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(spmd, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%u", &P) != 1 || P == 0) return EXIT_FAILURE;
  spmd();
  return EXIT_SUCCESS;
}
