/* wrap_lib.c: the helper library of wrapped_get.c. */
#include "wrap_lib.h"

#include <bsp.h>

void get_pair(int pid, const int* area, int offset, int* dst) {
  bsp_get(pid, area, offset * (int)sizeof(int), dst, 2 * sizeof(int));
}
