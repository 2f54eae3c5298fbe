/* Writes the wall clock into a file (issue 42): two runs of one seed write different contents,
 * while they make the same BSPlib calls and print the same. */
#include <bsp.h>
#include <stdio.h>
#include <time.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    FILE* f = fopen("stamp.txt", "w");
    fprintf(f, "written at %lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
    fclose(f);
  }
  bsp_sync();
  bsp_end();
  return 0;
}
