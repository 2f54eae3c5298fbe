/* messages.c: registrations and queued messages for the gdb tests (registrations_queue_test.py).
 * Every process registers `table` and sets a 4-byte tag size in superstep 0 (both take effect at
 * the barrier), sends process 0 two messages in superstep 1, and process 0 moves them all in
 * superstep 2. No finding: the test stops with break_superstep. */
#include "bsp.h"

int table[4];

int main(void) {
  bsp_begin(3);
  int s = bsp_pid(), tagsize = 4;
  bsp_set_tagsize(&tagsize);
  bsp_push_reg(table, (int)sizeof table); /* TAG:push */
  bsp_sync();
  for (int k = 0; k < 2; k++) {
    int tag = 10 * s + k;
    double payload[3] = {s, k, 0};
    bsp_send(0, &tag, payload, (int)sizeof payload);
  }
  bsp_sync(); /* TAG:first-sync */
  if (s == 0) {
    int n, bytes, status, tag;
    double payload[3];
    bsp_qsize(&n, &bytes);
    for (int i = 0; i < n; i++) {
      bsp_get_tag(&status, &tag);
      bsp_move(payload, (int)sizeof payload);
    }
  }
  bsp_pop_reg(table);
  bsp_sync();
  bsp_end();
  return 0;
}
