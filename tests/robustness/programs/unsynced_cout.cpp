// std::ios::sync_with_stdio(false) inside the SPMD part, as a C++ program turns it on for speed:
// every process's line is printed (it used to go to file descriptor -1 and be lost).
#include <iostream>
#include "bsp.h"
int main() {
  bsp_begin(bsp_nprocs());
  std::ios::sync_with_stdio(false);
  std::cout << "hello from process " << bsp_pid() << std::endl;
  bsp_sync();
  std::cout << "bye from process " << bsp_pid() << '\n';
  bsp_end();
  return 0;
}
