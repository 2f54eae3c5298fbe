/* samplesort.c: randomised sample sort with bulk synchronous message passing (paper section 5.3).
 *
 * Each process generates a_size pseudo-random keys (doubles holding integers in [0, 10^6)) from
 * its own generator, seeded by its pid, so the input does not depend on the schedule.
 *   1. Each process draws r random samples from its keys and sends them to every process.
 *   2. Every process drains the p*r samples it received with bsp_hpmove (they arrive in arbitrary
 *      order), sorts them and picks the keys of ranks r, 2r, ..., (p-1)r as the p-1 splitters,
 *      so all agree on them.
 *   3. Each key goes with bsp_send to its bucket's process, as in the paper's code; each process
 *      sizes its bucket with bsp_qsize, drains it with bsp_move and sorts it locally.
 *   4. Verification: every process puts (count, min, max, sum of bucket, sum of input) into
 *      process 0, which checks that the buckets are in order and nothing was lost or invented.
 *
 * Usage: samplesort [a_size [r]]   (defaults 64 and 8)
 * Output: one line per process s
 *   samplesort: pid s count C min M max X sum S
 * (min and max are "-" for an empty bucket), then from process 0
 *   samplesort: n N p P ordered yes checksum S
 * The generator: state = (s+1) * 0x9E3779B97F4A7C15; each draw does
 * state = state * 6364136223846793005 + 1442695040888963407 (mod 2^64) and returns state >> 33.
 * A key is draw % 1000000; then r sample indices are draw % a_size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"

static uint64_t next_draw(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 33;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The bucket of key x: the number of splitters s[0..nsplit-1] that are <= x. */
static int bucket(double x, const double *s, int nsplit) {
  int lo = 0, hi = nsplit;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (s[mid] <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

enum { ST_COUNT, ST_MIN, ST_MAX, ST_SUM, ST_INSUM, ST_N };

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), pid = bsp_pid();
  int a_size = argc > 1 ? atoi(argv[1]) : 64;
  int r = argc > 2 ? atoi(argv[2]) : 8;
  if (a_size < 1 || r < 1) bsp_abort("samplesort: bad arguments a_size=%d r=%d", a_size, r);

  uint64_t state = (uint64_t)(pid + 1) * 0x9E3779B97F4A7C15ULL;
  double *a = malloc((size_t)a_size * sizeof(double));
  double *s = malloc((size_t)(p > 1 ? p - 1 : 1) * sizeof(double));
  double *stats = calloc((size_t)p * ST_N, sizeof(double));
  if (a == NULL || s == NULL || stats == NULL) bsp_abort("samplesort: no memory");
  double insum = 0.0;
  for (int i = 0; i < a_size; i++) {
    a[i] = (double)(next_draw(&state) % 1000000u);
    insum += a[i];
  }
  bsp_push_reg(stats, p * ST_N * (int)sizeof(double));

  /* 1. Every process gets every sample. */
  for (int k = 0; k < r; k++) {
    double sample = a[next_draw(&state) % (uint64_t)a_size];
    for (int j = 0; j < p; j++) bsp_send(j, NULL, &sample, sizeof(double));
  }
  bsp_sync();

  /* 2. Choose the splitters. */
  int nsamples, nbytes;
  bsp_qsize(&nsamples, &nbytes);
  if (nsamples != p * r || nbytes != p * r * (int)sizeof(double))
    bsp_abort("samplesort: pid %d got %d samples (%d bytes), expected %d", pid, nsamples, nbytes,
              p * r);
  double *samples = malloc((size_t)nsamples * sizeof(double));
  if (samples == NULL) bsp_abort("samplesort: no memory");
  /* The lean way to drain a queue: bsp_hpmove hands out pointers into the system buffer, valid
   * until the end of the superstep. */
  void *tagp, *payp;
  int len, got = 0;
  while ((len = bsp_hpmove(&tagp, &payp)) >= 0) {
    if (len != (int)sizeof(double) || got == nsamples)
      bsp_abort("samplesort: pid %d: unexpected sample message of %d bytes", pid, len);
    memcpy(&samples[got++], payp, sizeof(double));
  }
  if (got != nsamples) bsp_abort("samplesort: pid %d moved %d of %d samples", pid, got, nsamples);
  qsort(samples, (size_t)nsamples, sizeof(double), cmp_double);
  for (int k = 1; k < p; k++) s[k - 1] = samples[k * r - 1];
  free(samples);

  /* 3. Distribute each element of a[] to the appropriate processor (the paper's code). */
  for (int i = 0; i < a_size; i++) {
    int j = bucket(a[i], s, p - 1);
    bsp_send(j, NULL, &a[i], sizeof(double));
  }
  bsp_sync();

  int b_size, dummy;
  bsp_qsize(&b_size, &dummy);
  double *b = calloc((size_t)(b_size > 0 ? b_size : 1), sizeof(double));
  if (b == NULL) bsp_abort("samplesort: no memory");
  for (int i = 0; i < b_size; i++) bsp_move(&b[i], sizeof(double));
  qsort(b, (size_t)b_size, sizeof(double), cmp_double);

  /* Every key in my bucket must belong here. */
  double bsum = 0.0;
  for (int i = 0; i < b_size; i++) {
    if (bucket(b[i], s, p - 1) != pid)
      bsp_abort("samplesort: pid %d received key %.0f of bucket %d", pid, b[i],
                bucket(b[i], s, p - 1));
    bsum += b[i];
  }

  /* 4. Gather the statistics on process 0. */
  double mine[ST_N] = {(double)b_size, b_size > 0 ? b[0] : 0.0, b_size > 0 ? b[b_size - 1] : 0.0,
                       bsum, insum};
  bsp_put(0, mine, stats, pid * ST_N * (int)sizeof(double), sizeof mine);
  bsp_sync();

  if (b_size > 0)
    printf("samplesort: pid %d count %d min %.0f max %.0f sum %.0f\n", pid, b_size, b[0],
           b[b_size - 1], bsum);
  else
    printf("samplesort: pid %d count 0 min - max - sum 0\n", pid);

  if (pid == 0) {
    double total = 0.0, outsum = 0.0, total_in = 0.0, last = -1.0;
    for (int k = 0; k < p; k++) {
      const double *st = &stats[k * ST_N];
      total += st[ST_COUNT];
      outsum += st[ST_SUM];
      total_in += st[ST_INSUM];
      if (st[ST_COUNT] > 0) {
        if (st[ST_MIN] < last)
          bsp_abort("samplesort: bucket %d starts at %.0f, below the previous maximum %.0f", k,
                    st[ST_MIN], last);
        last = st[ST_MAX];
      }
    }
    if (total != (double)a_size * p)
      bsp_abort("samplesort: %.0f keys sorted, expected %d", total, a_size * p);
    if (outsum != total_in)
      bsp_abort("samplesort: checksum %.0f of the output differs from %.0f of the input", outsum,
                total_in);
    printf("samplesort: n %d p %d ordered yes checksum %.0f\n", a_size * p, p, outsum);
  }

  bsp_pop_reg(stats);
  bsp_sync();
  free(a);
  free(b);
  free(s);
  free(stats);
  bsp_end();
  return 0;
}
