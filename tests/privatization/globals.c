/* Every BSP process has its own globals, statics and C library state, as separate OS processes
 * would: each process writes its pid into them, synchronises (other processes run meanwhile) and
 * checks that it still reads its own values. A put into a registered global reaches the target's
 * own copy. Prints one line per process; the test compares them with what separate processes print. */
#include <bsp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counter;                 /* .bss */
int initialised = 100;       /* .data */
static double file_static;   /* file static */
static __thread int per_thread = 7;  /* thread-local: the process is a thread in BSPlib's eyes */
int received[64];            /* destination of puts, registered */

static int next_id(void) {
  static int calls = 0;      /* static local */
  return ++calls;
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  counter += s;
  initialised += 10 * s;
  file_static = s * 0.5;
  per_thread += s;
  for (int i = 0; i < s; ++i) next_id();
  srand(1000 + s);
  int r1 = rand();
  char text[] = "a,b,c";
  char *tok = strtok(text, ",");
  errno = 100 + s;
  bsp_push_reg(received, sizeof received);
  bsp_sync();
  int from = s;
  bsp_put((s + 1) % p, &from, received, s * (int)sizeof(int), sizeof(int));
  bsp_sync();
  int left = (s + p - 1) % p;
  int ok = counter == s && initialised == 100 + 10 * s && file_static == s * 0.5 && per_thread == 7 + s &&
           next_id() == s + 1 && errno == 100 + s && tok && strcmp(tok, "a") == 0 && received[left] == left;
  for (int i = 0; i < p; ++i)
    if (i != left && received[i] != 0) ok = 0;
  printf("process %d: %s counter=%d initialised=%d static=%g thread=%d rand=%d second=%d token=%s\n", s,
         ok ? "own" : "SHARED", counter, initialised, file_static, per_thread, r1, rand(), strtok(NULL, ","));
  bsp_pop_reg(received);
  bsp_end();
  return 0;
}
