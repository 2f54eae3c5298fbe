/* Ends with status argv[1] before bsp_begin when given an argument: the fork server sees its
 * channel close before any run (the driver must not die of SIGPIPE). */
#include <bsp.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc > 1) return atoi(argv[1]);
  bsp_begin(bsp_nprocs());
  bsp_end();
  return 0;
}
