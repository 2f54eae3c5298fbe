/* Process 0 prints every open file descriptor above 2 with what it points at, and whether it is
 * close-on-exec: the program must not inherit the driver's report files or the fork server's
 * channel, and the runtime's own files (a trace) must be close-on-exec and out of the way.
 * Every number below the descriptor limit is probed with fcntl: a listing of /proc/self/fd
 * leaves the runtime's own files out (runtime/isolation/runtime_fds.cpp), a probe of the number does not. */
#include <bsp.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    struct rlimit lim;
    int max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536 ? (int)lim.rlim_cur : 65536;
    for (int fd = 3; fd < max; ++fd) {
      int flags = fcntl(fd, F_GETFD);
      if (flags < 0) continue;
      char path[64], target[512];
      snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(path, target, sizeof target - 1);
      target[n > 0 ? n : 0] = 0;
      printf("open fd %d -> %s%s\n", fd, target, (flags & FD_CLOEXEC) ? " (close-on-exec)" : "");
    }
  }
  bsp_end();
  return 0;
}
