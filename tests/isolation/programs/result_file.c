/* A program whose job is to write a result file (issue 42): process 0 writes result.txt and
 * out/nested.txt in the working directory and removes stale.txt. "fail" aborts after writing;
 * "wait NAME" has process 0 tell the test it runs (/dev/shm/NAME.started, outside the covered
 * directories) and wait for /dev/shm/NAME.go before it writes, so that the test can change the
 * user's result.txt while the run goes on. */
#include <bsp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void wait_for_test(const char* name) {
  char path[256];
  snprintf(path, sizeof path, "/dev/shm/%s.started", name);
  FILE* f = fopen(path, "w");
  if (f) fclose(f);
  snprintf(path, sizeof path, "/dev/shm/%s.go", name);
  for (int i = 0; i < 1000 && access(path, F_OK) != 0; ++i) usleep(10000);
}

int main(int argc, char** argv) {
  bsp_begin(bsp_nprocs());
  const int fail = argc > 1 && strcmp(argv[1], "fail") == 0;
  if (bsp_pid() == 0) {
    if (argc > 2 && strcmp(argv[1], "wait") == 0) wait_for_test(argv[2]);
    FILE* f = fopen("result.txt", "w");
    fprintf(f, "result of %d processes\n", bsp_nprocs());
    fclose(f);
    mkdir("out", 0755);
    f = fopen("out/nested.txt", "w");
    fputs("nested\n", f);
    fclose(f);
    unlink("stale.txt");
  }
  bsp_sync();
  if (fail && bsp_pid() == 1) bsp_abort("failing on purpose, after writing result.txt\n");
  bsp_end();
  return 0;
}
