/* sieve.c: the sieve of Eratosthenes on a block distribution of 2..N (BSPedupack 2.0 (MulticoreBSP for C) style).
 * Every processor sieves its block with the primes up to sqrt(N), which it finds itself; the
 * counts and the largest primes travel to processor 0 as messages (read with bsp_hpmove), the per-processor counts also
 * by bsp_put into a registered array. */
#include "bspedupack.h"

#define N 10000

long P;

void bspsieve(void) {
  long p, s, b, lo, hi, i, j, q, count, largest, total, maxprime, *Count;
  bsp_nprocs_t nmessages;
  char *composite;
  long msg[2];

  bsp_begin(P);
  p = bsp_nprocs();
  s = bsp_pid();
  b = (N - 1 + p - 1) / p; /* numbers 2..N, in blocks of b */
  lo = 2 + s * b;
  hi = MIN(N, lo + b - 1);

  Count = vecalloci(p);
  bsp_push_reg(Count, p * SZLONG);
  bsp_sync();

  composite = (char *)calloc(b > 0 ? b : 1, 1);
  for (q = 2; q * q <= N; q++) {
    long isprime = true;
    for (j = 2; j * j <= q; j++)
      if (q % j == 0) isprime = false;
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
  bsp_put(0, &count, Count, s * SZLONG, SZLONG);
  bsp_sync();

  if (s == 0) {
    /* MulticoreBSP's accumulated size is optional; bsp_hpmove hands out the messages in place
       and returns SIZE_MAX when none is left. */
    void *tag, *payload;
    bsp_qsize(&nmessages, NULL);
    if (nmessages != (bsp_nprocs_t)p) bsp_abort("sieve: %u messages for %ld processors", nmessages, p);
    total = 0;
    maxprime = 0;
    while (bsp_hpmove(&tag, &payload) != SIZE_MAX) {
      const long *counts = (const long *)payload;
      total += counts[0];
      maxprime = MAX(maxprime, counts[1]);
    }
    for (q = 0; q < p; q++) total -= Count[q];
    if (total != 0) bsp_abort("sieve: the messages and the puts disagree");
    for (q = 0; q < p; q++) total += Count[q];
    printf("There are %ld primes up to %d; the largest is %ld.\n", total, N, maxprime);
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
  if (scanf("%ld", &P) != 1) P = bsp_nprocs();
  if (P > bsp_nprocs()) {
    printf("Sorry, not enough processors available.\n");
    exit(1);
  }
  bspsieve();
  exit(0);
}
