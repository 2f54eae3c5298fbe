/* worker_findings.c: a program whose findings depend on the seed, for the workers of the fork
 * server in a program built with AddressSanitizer (tests/tools/sanitized_worker_test.py).
 *
 *   worker_findings STATE_DIR leak|overflow
 *
 * Every process but 1 puts its pid into the same int of process 1: which put lands last (the
 * collision's winner) is drawn from the seed. Process 1 then leaks a block (leak) or reads past
 * the end of one (overflow) when process 0 won, so that some runs of a session have the finding
 * and others not (p >= 3). Process 1 runs on a stack of its own, which no leak check scans after
 * the run, so the block's address left in dead frames of malloc hides nothing. Process 0 creates
 * STATE_DIR/<its OS pid>, so that the test can count the OS processes that made the session's
 * runs (a worker makes many). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsp.h"

char* volatile kept_block; /* a block every run allocates and keeps: not a leak */

/* The block's only address is overwritten (volatile: the store is made). */
__attribute__((noinline)) static void leak_a_block(int winner) {
  char* volatile lost = malloc(77);
  lost[0] = (char)winner;
  lost = NULL;
}

int main(int argc, char** argv) {
  bsp_begin(bsp_nprocs());
  if (argc < 3) bsp_abort("usage: worker_findings STATE_DIR leak|overflow\n");
  int winner = -1, me = bsp_pid();
  bsp_push_reg(&winner, sizeof winner);
  bsp_sync();
  if (me != 1) bsp_put(1, &me, &winner, 0, sizeof me);
  bsp_sync();
  if (me == 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", argv[1], (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT, 0600);
    if (fd >= 0) close(fd);
  }
  if (me == 1) {
    kept_block = malloc(64);
    kept_block[0] = 1;
    if (winner == 0 && strcmp(argv[2], "leak") == 0) leak_a_block(winner);
    if (winner == 0 && strcmp(argv[2], "overflow") == 0) {
      volatile char* block = malloc(16);
      volatile int end = 16; /* unknown to the compiler, which would refuse the read */
      printf("read past the end: %d\n", block[end]);
      free((void*)block);
    }
  }
  bsp_pop_reg(&winner);
  bsp_end();
  return 0;
}
