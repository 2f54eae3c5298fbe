/* A usage check before bsp_begin, as the Oxford toolset's examples and BSPonMPI's abort_1 make:
   bsp_abort halts the program there too (an abort finding, not a misuse). */
#include "bsp.h"
int main(int argc, char **argv) {
  if (argc < 2) bsp_abort("usage: %s N\n", argv[0]);
  bsp_begin(bsp_nprocs());
  bsp_end();
  return 0;
}
