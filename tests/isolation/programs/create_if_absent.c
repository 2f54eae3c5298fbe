/* Creates a file only if it is absent, and says which it found: every run must find it absent
 * (the session started without it), create it, and see its own contents. A run that found
 * another run's file says so and fails. */
#include <bsp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  if (bsp_pid() == 0) {
    const int fd = open("bsp-check-isolation.once", O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST) bsp_abort("the file was there already: another run's\n");
    if (fd < 0) bsp_abort("cannot create the file\n");
    if (write(fd, "made\n", 5) != 5) bsp_abort("cannot write the file\n");
    close(fd);
    printf("created it\n");
  }
  bsp_sync();
  if (access("bsp-check-isolation.once", F_OK) != 0) bsp_abort("process %d does not see the file\n", bsp_pid());
  bsp_end();
  return 0;
}
