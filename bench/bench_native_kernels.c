/* bench_native_kernels.c: seven BSPlib kernels, timed, in portable BSPlib 1.x (the same source
 * builds with bsp-check's bspcc and with a native BSPlib's, e.g. BSPonMPI's), for
 * bench/bench_native.sh, which runs them side by side under both.
 *
 *   bench_native_kernels KERNEL N REPS
 *
 *   inprod    x.x of N doubles per process: local sum, each partial put to every process, summed
 *   ring      N doubles put to the right neighbour, one superstep each, REPS times
 *   alltoall  N doubles put from every process to every process, one superstep, REPS times
 *   sort      sample sort of N ints per process with bsp_send/bsp_move, REPS times
 *   messages  N messages of 8 bytes from every process to every process with bsp_send, all moved
 *             on arrival, one superstep each, REPS times (bench/mpi/bench_mpi_native.sh)
 *   bigput    one put of N bytes to the right neighbour, one superstep each, REPS times
 *   empty     REPS supersteps with no communication (N is ignored)
 *
 * Process 0 prints one line: the kernel, p, the wall-clock seconds between the sync before the
 * first repetition and the sync after the last (CLOCK_MONOTONIC, not bsp_time: bsp-check's
 * bsp_time is virtual), and a check value that does not depend on the BSPlib or on p's schedule,
 * so that the two runs are seen to do the same work. A wrong result ends the program with
 * bsp_abort. bsp_begin is the first statement of main, which every BSPlib accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bsp.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n > 0 ? n : 1);
  if (!p) bsp_abort("bench_native_kernels: out of memory (%zu bytes)\n", n);
  return p;
}

/* x.x over N doubles per process, REPS times; the check is the last total. */
static double inprod(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  double *x = xmalloc((size_t)n * sizeof *x), *parts = xmalloc((size_t)p * sizeof *parts);
  for (int i = 0; i < n; i++) x[i] = (double)((s * n + i) % 1000) * 0.001;
  bsp_push_reg(parts, p * (int)sizeof *parts);
  bsp_sync();
  double total = 0;
  for (int r = 0; r < reps; r++) {
    double local = 0;
    for (int i = 0; i < n; i++) local += x[i] * x[i];
    for (int t = 0; t < p; t++) bsp_put(t, &local, parts, s * (int)sizeof local, sizeof local);
    bsp_sync();
    total = 0;
    for (int t = 0; t < p; t++) total += parts[t];
  }
  bsp_pop_reg(parts);
  free(parts);
  free(x);
  return total;
}

/* N doubles to the right neighbour per superstep, REPS supersteps; the check is the sum of what
 * process 0 holds at the end. */
static double ring(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  double *in = xmalloc((size_t)n * sizeof *in), *out = xmalloc((size_t)n * sizeof *out);
  for (int i = 0; i < n; i++) out[i] = s + i * 1e-6;
  bsp_push_reg(in, n * (int)sizeof *in);
  bsp_sync();
  for (int r = 0; r < reps; r++) {
    bsp_put((s + 1) % p, out, in, 0, n * (int)sizeof *out);
    bsp_sync();
    memcpy(out, in, (size_t)n * sizeof *out);
  }
  double sum = 0;
  for (int i = 0; i < n; i++) sum += in[i];
  bsp_pop_reg(in);
  free(out);
  free(in);
  return sum;
}

/* N doubles from every process to every process per superstep, REPS supersteps. */
static double alltoall(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  double *src = xmalloc((size_t)n * (size_t)p * sizeof *src), *dst = xmalloc((size_t)n * (size_t)p * sizeof *dst);
  for (int i = 0; i < n * p; i++) src[i] = s * 1000.0 + i % 1000;
  bsp_push_reg(dst, n * p * (int)sizeof *dst);
  bsp_sync();
  for (int r = 0; r < reps; r++) {
    for (int t = 0; t < p; t++) bsp_put(t, src + (size_t)t * n, dst, s * n * (int)sizeof *dst, n * (int)sizeof *dst);
    bsp_sync();
  }
  double sum = 0;
  for (int i = 0; i < n * p; i++) sum += dst[i];
  bsp_pop_reg(dst);
  free(dst);
  free(src);
  return sum;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sample sort of N pseudo-random ints per process (the same keys whatever p), REPS times: local
 * sort, p samples of each process to every process, the splitters, every bucket sent with
 * bsp_send, the received keys moved and sorted. The check is the number of keys on process 0
 * plus their sum mod 2^20, and the sortedness across processes is verified with a put. */
static double sort(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  int *keys = xmalloc((size_t)n * sizeof *keys), *recv = xmalloc((size_t)n * (size_t)p * sizeof *recv);
  int *samples = xmalloc((size_t)p * (size_t)p * sizeof *samples), *splitters = xmalloc((size_t)p * sizeof *splitters);
  int *ends = xmalloc((size_t)p * sizeof *ends);
  int nrecv = 0;
  bsp_push_reg(samples, p * p * (int)sizeof *samples);
  bsp_push_reg(ends, p * (int)sizeof *ends);
  bsp_sync();
  for (int r = 0; r < reps; r++) {
    unsigned x = 2463534242u + (unsigned)s * 747796405u + (unsigned)r;
    for (int i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      keys[i] = (int)(x >> 1);
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_int);
    for (int t = 0; t < p; t++) {
      int sample = keys[(size_t)t * n / p];
      for (int u = 0; u < p; u++) bsp_put(u, &sample, samples, (s * p + t) * (int)sizeof sample, sizeof sample);
    }
    bsp_sync();
    qsort(samples, (size_t)p * p, sizeof *samples, cmp_int);
    for (int t = 1; t < p; t++) splitters[t] = samples[t * p];
    int lo = 0;
    for (int t = 0; t < p; t++) {
      int hi = lo;
      while (hi < n && (t == p - 1 || keys[hi] < splitters[t + 1])) hi++;
      if (hi > lo) bsp_send(t, NULL, keys + lo, (size_t)(hi - lo) * sizeof *keys);
      lo = hi;
    }
    bsp_sync();
    int nmessages, nbytes;
    bsp_qsize(&nmessages, &nbytes);
    if ((size_t)nbytes > (size_t)n * (size_t)p * sizeof *recv) bsp_abort("sort: %d bytes received\n", nbytes);
    nrecv = 0;
    for (int m = 0; m < nmessages; m++) {
      int status, tag;
      bsp_get_tag(&status, &tag);
      bsp_move(recv + nrecv, (int)((size_t)n * p - nrecv) * (int)sizeof *recv);
      nrecv += status / (int)sizeof *recv;
    }
    qsort(recv, (size_t)nrecv, sizeof *recv, cmp_int);
    int last = nrecv > 0 ? recv[nrecv - 1] : -1;
    for (int u = 0; u < p; u++) bsp_put(u, &last, ends, s * (int)sizeof last, sizeof last);
    bsp_sync();
    if (nrecv > 0)
      for (int t = s - 1; t >= 0; t--)
        if (ends[t] >= 0) {
          if (ends[t] > recv[0]) bsp_abort("sort: process %d ends above process %d's first key\n", t, s);
          break;
        }
  }
  long sum = 0;
  for (int i = 0; i < nrecv; i++) sum = (sum + recv[i]) % (1 << 20);
  bsp_pop_reg(ends);
  bsp_pop_reg(samples);
  free(ends);
  free(splitters);
  free(samples);
  free(recv);
  free(keys);
  return s == 0 ? (double)nrecv + (double)sum * 1e-7 : 0;
}

/* N 8-byte messages to every process per superstep, each moved when it arrives; the check is the
 * sum of the last superstep's payloads on process 0. */
static double messages(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  double sum = 0;
  for (int r = 0; r < reps; r++) {
    for (int t = 0; t < p; t++)
      for (int i = 0; i < n; i++) {
        double value = s + i * 1e-3;
        bsp_send(t, NULL, &value, sizeof value);
      }
    bsp_sync();
    int nmessages, nbytes;
    bsp_qsize(&nmessages, &nbytes);
    if (nmessages != n * p) bsp_abort("messages: %d messages received, not %d\n", nmessages, n * p);
    sum = 0;
    for (int m = 0; m < nmessages; m++) {
      double value;
      bsp_move(&value, sizeof value);
      sum += value;
    }
  }
  return sum;
}

/* One put of N bytes to the right neighbour per superstep; the check is a sample of what process
 * 0 received. */
static double bigput(int n, int reps) {
  int p = bsp_nprocs(), s = bsp_pid();
  unsigned char *src = xmalloc((size_t)n), *dst = calloc((size_t)n, 1);
  if (!dst) bsp_abort("bench_native_kernels: out of memory (%d bytes)\n", n);
  for (int i = 0; i < n; i++) src[i] = (unsigned char)(s + i);
  bsp_push_reg(dst, n);
  bsp_sync();
  for (int r = 0; r < reps; r++) {
    bsp_put((s + 1) % p, src, dst, 0, n);
    bsp_sync();
  }
  double check = 0;
  for (int i = 0; i < n; i += 4099) check += dst[i];
  bsp_pop_reg(dst);
  free(dst);
  free(src);
  return check;
}

/* REPS supersteps that communicate nothing: the cost of a bare bsp_sync. */
static double empty(int n, int reps) {
  (void)n;
  for (int r = 0; r < reps; r++) bsp_sync();
  return reps;
}

int main(int argc, char **argv) {
  bsp_begin(bsp_nprocs());
  if (argc != 4) bsp_abort("usage: bench_native_kernels inprod|ring|alltoall|sort|messages|bigput|empty N REPS\n");
  const char *kernel = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  if (n < 1 || reps < 1) bsp_abort("bench_native_kernels: N and REPS must be positive\n");
  double (*run)(int, int) = strcmp(kernel, "inprod") == 0     ? inprod
                            : strcmp(kernel, "ring") == 0     ? ring
                            : strcmp(kernel, "alltoall") == 0 ? alltoall
                            : strcmp(kernel, "sort") == 0     ? sort
                            : strcmp(kernel, "messages") == 0 ? messages
                            : strcmp(kernel, "bigput") == 0   ? bigput
                            : strcmp(kernel, "empty") == 0    ? empty
                                                              : NULL;
  if (!run) bsp_abort("bench_native_kernels: unknown kernel '%s'\n", kernel);
  bsp_sync();
  double t0 = now();
  double check = run(n, reps);
  bsp_sync();
  double seconds = now() - t0;
  if (bsp_pid() == 0)
    printf("kernel %s p %d n %d reps %d seconds %.6f check %.6f\n", kernel, bsp_nprocs(), n, reps, seconds, check);
  bsp_end();
  return 0;
}
