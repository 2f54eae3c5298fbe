/* tagsize_mismatch.c: only some processes call bsp_set_tagsize.
 *
 * bsp_set_tagsize is collective: all processes must call it with the same argument in the same
 * superstep (BSPlib 4.1.2 (3)). Here only process 0, the one that sends tagged messages, sets
 * the tag size; the others keep the old one.
 * Fix: every process calls bsp_set_tagsize with the same size: see tagsize_mismatch_ok.c. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int tagsize = sizeof(int);
  if (s == 0) bsp_set_tagsize(&tagsize); /* BUG: tagsize-mismatch @ superstep 0, process 0 */
  bsp_sync();

  if (s == 0)
    for (int t = 0; t < p; t++) {
      int tag = t, value = 1000 + t;
      bsp_send(t, &tag, &value, sizeof value);
    }
  bsp_sync();
  int status = -1, tag = -1, value = -1;
  bsp_get_tag(&status, &tag);
  if (status >= 0) bsp_move(&value, sizeof value);
  printf("tagsize_mismatch: pid %d tag %d value %d\n", s, tag, value);
  bsp_end();
  return 0;
}
