/* After a get-dst-early-read warning the program goes on; a real memory error still stops it. The
   early read and the error are loads of one instruction (peek): ASan, which would otherwise skip
   later errors at an instruction that reported once, must not skip this one. The error comes while
   another get's destination is still poisoned, when ASan's report text is held back for warnings:
   the text of an error is printed all the same. argv[1] chooses the error: "overflow" (a heap
   buffer overflow) or "freed" (a use after free). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bsp.h"

__attribute__((noinline)) static int peek(const int* at) { return *at; }

int main(int argc, char** argv) {
  bsp_begin(bsp_nprocs());
  const int s = bsp_pid();
  int x = 100 + s;
  bsp_push_reg(&x, sizeof x);
  bsp_sync();
  int y = -1, z = -2;
  bsp_get(0, &x, 0, &y, sizeof y); /* CALL */
  bsp_get(0, &x, 0, &z, sizeof z);
  const int old = peek(&y); /* BUG: get-dst-early-read (the program goes on) */
  int* heap = malloc(4 * sizeof(int));
  memset(heap, 0, 4 * sizeof(int));
  if (argc > 1 && strcmp(argv[1], "freed") == 0) free(heap);
  if (s == 0) {
    const int bad = strcmp(argc > 1 ? argv[1] : "", "freed") == 0 ? peek(heap) /* ERROR: use after free */
                                                                  : peek(heap + 4); /* ERROR: overflow */
    printf("process 0 went on after a memory error (%d, %d)\n", old, bad);
  }
  if (!(argc > 1 && strcmp(argv[1], "freed") == 0)) free(heap);
  bsp_sync();
  printf("process %d reached its end: %d %d\n", s, y, z);
  bsp_pop_reg(&x);
  bsp_end();
  return 0;
}
