/* Process 0 prints every open file descriptor above 2 with what it points at, and whether it is
 * close-on-exec: the program must not inherit the driver's report files or the fork server's
 * channel, and the runtime's own files (a trace) must be close-on-exec and out of the way. */
#include <bsp.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    DIR* d = opendir("/proc/self/fd");
    struct dirent* e;
    while (d && (e = readdir(d))) {
      int fd = atoi(e->d_name);
      if (e->d_name[0] == '.' || fd <= 2 || fd == dirfd(d)) continue;
      char path[64], target[512];
      snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(path, target, sizeof target - 1);
      target[n > 0 ? n : 0] = 0;
      printf("open fd %d -> %s%s\n", fd, target, (fcntl(fd, F_GETFD) & FD_CLOEXEC) ? " (close-on-exec)" : "");
    }
    if (d) closedir(d);
  }
  bsp_end();
  return 0;
}
