/* level1_hygiene.c: a level-1 collective does not leave the BSPlib state as it found it.
 *
 * bcast_int broadcasts an int from a root with tagged messages. It sets the tag size it needs
 * but never restores the caller's, so after it returns every message the caller sends carries
 * a tag of the wrong size (BSPlib 6: a library operation must not change the state its caller
 * sees). Bracketed with bspcheck_level1_enter/exit (include/bspcheck/hygiene.h), bsp-check
 * compares registrations, tag size and unread messages at exit with the state at entry and warns
 * (level1-hygiene) at the bspcheck_level1_exit.
 * Fix: restore the tag size before returning: see level1_hygiene_ok.c. */
#include <stdio.h>

#include "bsp.h"
#include "bspcheck/hygiene.h"

static int bcast_int(int x, int root) {
  int p = bsp_nprocs();
  int tagsize = sizeof(int); /* the tag carries the root's pid */
  bsp_set_tagsize(&tagsize);
  bsp_sync();
  if (bsp_pid() == root)
    for (int t = 0; t < p; t++) bsp_send(t, &root, &x, sizeof x);
  bsp_sync();
  int tag = -1, status = -1;
  bsp_get_tag(&status, &tag);
  bsp_move(&x, sizeof x);
  return x; /* the caller's tag size is not restored */
}

int main(void) {
  bsp_begin(bsp_nprocs());
  int s = bsp_pid();
  bspcheck_level1_enter("bcast_int");
  int x = bcast_int(s == 0 ? 42 : -1, 0);
  bspcheck_level1_exit("bcast_int"); /* BUG: level1-hygiene @ superstep 2, process 0 */
  printf("level1_hygiene: pid %d x %d\n", s, x);
  bsp_end();
  return 0;
}
