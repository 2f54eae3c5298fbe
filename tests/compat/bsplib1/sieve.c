/* sieve.c: the sieve of Eratosthenes on a block distribution of 2..N (BSPedupack 1.x style).
 * Every processor sieves its block with the primes up to sqrt(N), which it finds itself; the
 * counts and the largest primes travel to processor 0 as messages, the per-processor counts also
 * by bsp_put into a registered array. */
#include "bspedupack.h"

#define N 10000

int P;

void bspsieve(void) {
  int p, s, b, lo, hi, i, j, q, count, largest, nmessages, nbytes, total, maxprime, *Count;
  char *composite;
  int msg[2];

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  b = (N - 1 + p - 1) / p; /* numbers 2..N, in blocks of b */
  lo = 2 + s * b;
  hi = MIN(N, lo + b - 1);

  Count = vecalloci(p);
  bsp_push_reg(Count, p * SZINT);
  bsp_sync();

  composite = (char *)calloc(b > 0 ? b : 1, 1);
  for (q = 2; q * q <= N; q++) {
    int isprime = TRUE;
    for (j = 2; j * j <= q; j++)
      if (q % j == 0) isprime = FALSE;
    if (!isprime) continue;
    for (i = MAX(q * q, (lo + q - 1) / q * q); i <= hi; i += q) composite[i - lo] = 1;
  }
  count = 0;
  largest = 0;
  for (i = lo; i <= hi; i++)
    if (!composite[i - lo]) {
      count++;
      largest = i;
    }
  msg[0] = count;
  msg[1] = largest;
  bsp_send(0, NULL, msg, sizeof msg);
  bsp_put(0, &count, Count, s * SZINT, SZINT);
  bsp_sync();

  if (s == 0) {
    bsp_qsize(&nmessages, &nbytes);
    total = 0;
    maxprime = 0;
    for (i = 0; i < nmessages; i++) {
      bsp_move(msg, sizeof msg);
      total += msg[0];
      maxprime = MAX(maxprime, msg[1]);
    }
    for (q = 0; q < p; q++) total -= Count[q];
    if (total != 0) bsp_abort("sieve: the messages and the puts disagree");
    for (q = 0; q < p; q++) total += Count[q];
    printf("There are %d primes up to %d; the largest is %d.\n", total, N, maxprime);
  }
  bsp_pop_reg(Count);
  bsp_sync();
  free(composite);
  vecfreei(Count);
  bsp_end();
}

int main(int argc, char **argv) {
  bsp_init(bspsieve, argc, argv);
  printf("How many processors do you want to use?\n");
  fflush(stdout);
  if (scanf("%d", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bspsieve();
  exit(0);
}
