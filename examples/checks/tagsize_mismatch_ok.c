/* tagsize_mismatch_ok.c: the correct twin of tagsize_mismatch.c: every process sets the tag
 * size, and the old one is restored at the end. */
#include <stdio.h>

#include "bsp.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int tagsize = sizeof(int);
  bsp_set_tagsize(&tagsize); /* FIX: all processes; tagsize now holds the old size */
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
  if (tag != s || value != 1000 + s) bsp_abort("tagsize_mismatch_ok: pid %d got %d %d", s, tag, value);
  printf("tagsize_mismatch_ok: pid %d tag %d value %d\n", s, tag, value);
  bsp_set_tagsize(&tagsize);
  bsp_sync();
  bsp_end();
  return 0;
}
