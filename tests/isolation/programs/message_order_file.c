/* Its file's contents depend on the message order (issue 42): every process sends its pid to
 * process 0, which writes the senders into order.txt in the order their messages come out of
 * its queue (BSPlib gives no order). Its standard output is the same under every seed. */
#include <bsp.h>
#include <stdio.h>

int main(void) {
  bsp_begin(bsp_nprocs());
  const int me = bsp_pid();
  bsp_send(0, NULL, &me, sizeof me);
  bsp_sync();
  if (me == 0) {
    FILE* f = fopen("order.txt", "w");
    fputs("senders in the order they came:\n", f);
    int messages = 0, bytes = 0, from = 0;
    bsp_qsize(&messages, &bytes);
    for (int i = 0; i < messages; ++i) {
      bsp_move(&from, sizeof from);
      fprintf(f, "%d\n", from);
    }
    fclose(f);
    printf("%d messages\n", messages);
  }
  bsp_end();
  return 0;
}
