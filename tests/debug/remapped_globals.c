/* remapped_globals.c: a program whose data is large enough (1 MiB) that the runtime switches each
 * process's copy of it by remapping a memfd instead of copying (runtime/isolation/private_globals.hpp), for
 * remapped_globals_test.py. Each process writes its own value into the big array. */
#include "bsp.h"

int big[1 << 18];

int main(void) {
  bsp_begin(2);
  big[1000] = 100 + bsp_pid();
  bsp_sync();
  bsp_sync();
  bsp_end();
  return 0;
}
