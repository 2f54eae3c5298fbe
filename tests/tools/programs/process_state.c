/* process_state.c: after bsp_end, process 0 changes what a worker of the fork server must set back
 * before its next run (runtime/isolation/process_snapshot.hpp): a global, the heap (a small block and a
 * leaked mmap-sized one), a descriptor left open, a signal disposition, the signal stack, the
 * environment, the C library's rand state, its standard output's flags (O_APPEND), at p > 1 its
 * standard error (pointed at /dev/null: the next run's must still reach the driver) and at p = 3
 * its standard input (replaced by /dev/zero); and every process but 0 leaves a mark deep in its
 * coroutine stack, which a worker hands on to its next run (runtime/fibers/fiber_stack.hpp) and must
 * clear first. Every run must find them as a freshly started process does: it prints
 * them (the heap as an offset from a block allocated before bsp_begin: addresses differ between
 * executions of the program, and so do the places of mappings, which are not printed), and
 * tests/tools/run_worker_test.py compares each seed's line with the line of a fresh child. It also leaves a file STATE_DIR/<pid>-<start time> per OS process,
 * so that the test can count the processes that made the runs.
 *
 *   process_state STATE_DIR */
#include <bsp.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int runs_in_this_image;   /* a global: 1 in every run */
static char own_signal_stack[1 << 16];
static char greeting[32] = "unchanged";

static void on_usr1(int sig) { (void)sig; }

/* Whether this stack, 12 KiB down, holds the mark of an earlier run; leaves the mark. A fresh
 * process's coroutine stack reads as zeros there, but for what this run's own earlier calls left
 * (a byte of 0xA5 among it by chance now and then): the mark is seen when most bytes bear it. */
static __attribute__((noinline)) int stack_marked(void) {
  volatile unsigned char deep[12288];
  __asm__ volatile("" : : "r"(deep) : "memory"); /* as far as the compiler knows, this set it */
  size_t seen = 0;
  for (size_t i = 0; i < sizeof deep; i++) seen += deep[i] == 0xA5;
  for (size_t i = 0; i < sizeof deep; i++) deep[i] = 0xA5;
  return seen > sizeof deep / 2;
}

int main(int argc, char **argv) {
  char *small_anchor = malloc(100);
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), pid = bsp_pid();
  int got = -1, marked = pid > 0 ? stack_marked() : 0, any_marked = 0;
  bsp_push_reg(&got, sizeof got);
  bsp_push_reg(&any_marked, sizeof any_marked);
  bsp_sync();
  bsp_put((pid + 1) % p, &pid, &got, 0, sizeof pid);
  if (marked) bsp_put(0, &marked, &any_marked, 0, sizeof marked);
  bsp_sync();
  bsp_pop_reg(&any_marked);
  bsp_pop_reg(&got);
  bsp_end();

  if (argc < 2) return 2;
  runs_in_this_image++;
  char *small = malloc(100);
  char *big = malloc(4 << 20); /* above the mmap threshold: a mapping of its own, leaked */
  int fd = open("/dev/null", O_RDONLY); /* left open */
  struct sigaction old;
  sigaction(SIGWINCH, NULL, &old); /* not one whose default the runtime stands in for (docs/checks.md, crash) */
  const char *env = getenv("PROCESS_STATE_TEST");
  int r = rand();
  stack_t ss;
  sigaltstack(NULL, &ss);
  const int own_stack = ss.ss_sp == own_signal_stack;

  char path[4096], stat[1024] = "";
  unsigned long long started = 0;
  FILE *st = fopen("/proc/self/stat", "r");
  if (st) {
    if (fgets(stat, sizeof stat, st)) {
      const char *after = strrchr(stat, ')'); /* the fields after the command name */
      if (after && sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                          &started) != 1)
        started = 0;
    }
    fclose(st);
  }
  snprintf(path, sizeof path, "%s/%d-%llu", argv[1], (int)getpid(), started);
  FILE *f = fopen(path, "a");
  if (f) fclose(f);
  const int out_flags = fcntl(STDOUT_FILENO, F_GETFL);
  struct stat in_st;
  const int stdin_zero = fstat(STDIN_FILENO, &in_st) == 0 && S_ISCHR(in_st.st_mode) && in_st.st_rdev == makedev(1, 5);
  fprintf(stderr, "stderr of run %d\n", runs_in_this_image);
  printf("runs %d greeting %s handler %s env %s rand %d heap %+td fd %d stack %s signal stack %s stdout %s stdin %s\n",
         runs_in_this_image, greeting, old.sa_handler == SIG_DFL ? "default" : "CHANGED", env ? "SET" : "unset", r,
         small - small_anchor, fd, any_marked ? "MARKED" : "clean", own_stack ? "CHANGED" : "as at start",
         out_flags >= 0 && !(out_flags & O_APPEND) ? "as opened" : "CHANGED", stdin_zero ? "CHANGED" : "as given");
  fflush(NULL);

  strcpy(greeting, "changed");
  signal(SIGWINCH, on_usr1);
  ss.ss_sp = own_signal_stack;
  ss.ss_size = sizeof own_signal_stack;
  ss.ss_flags = 0;
  sigaltstack(&ss, NULL);
  setenv("PROCESS_STATE_TEST", "1", 1);
  srand(7);
  fcntl(STDOUT_FILENO, F_SETFL, out_flags | O_APPEND);
  if (p == 3) { /* standard input replaced: the worker cannot set that back, and ends */
    close(STDIN_FILENO);
    open("/dev/zero", O_RDONLY);
  }
  if (p > 1) { /* at p = 1 the flags alone change (each process count has a worker of its own) */
    const int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, STDERR_FILENO);
    close(null_fd);
  }
  big[0] = 1;
  return 0;
}
