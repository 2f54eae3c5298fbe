// std::ios::sync_with_stdio(false) inside the SPMD part, as a C++ program turns it on for speed:
// every process's line is printed (it used to go to file descriptor -1 and be lost). With the
// argument "before", at the top of main instead, as C++ programs often do: process 0's line after
// bsp_end then comes after every line of the SPMD part (it used to come first).
#include <cstring>
#include <iostream>
#include "bsp.h"
int main(int argc, char** argv) {
  const bool before = argc > 1 && std::strcmp(argv[1], "before") == 0;
  if (before) std::ios::sync_with_stdio(false);
  bsp_begin(bsp_nprocs());
  if (!before) std::ios::sync_with_stdio(false);
  std::cout << "hello from process " << bsp_pid() << std::endl;
  bsp_sync();
  std::cout << "bye from process " << bsp_pid() << '\n';
  bsp_end();
  if (before) std::cout << "after bsp_end" << std::endl;
  return 0;
}
