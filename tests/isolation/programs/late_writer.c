/* Its file's contents depend on the message order, written by one process two supersteps later
 * (issue 42, locating a file divergence): every process sends its pid to the last process, which
 * takes the first message of its queue (BSPlib gives no order) and, in superstep 2, writes its
 * sender into first.txt with write(2), unbuffered. The divergence is located at the last process,
 * superstep 2, after the bsp_sync marked below. */
#include <bsp.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  const int me = bsp_pid(), last = bsp_nprocs() - 1;
  bsp_send(last, NULL, &me, sizeof me);
  bsp_sync();
  int first = -1, messages = 0, bytes = 0, from = 0;
  bsp_qsize(&messages, &bytes);
  for (int i = 0; i < messages; ++i) {
    bsp_move(&from, sizeof from);
    if (i == 0) first = from;
  }
  bsp_sync(); /* line 22: the call before the write */
  if (me == last) {
    char text[32];
    const int n = snprintf(text, sizeof text, "first sender: %d\n", first);
    const int fd = open("first.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0 && write(fd, text, (size_t)n) != n) perror("write");
    if (fd >= 0) close(fd);
  }
  bsp_sync();
  bsp_end();
  return 0;
}
