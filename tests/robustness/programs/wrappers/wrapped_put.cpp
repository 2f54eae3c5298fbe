// wrapped_put.cpp: a put through a wrapper (registered.hpp) writes past the end of its area on
// one line of this file; the finding must name that line, with the stack through the wrapper.
#include "registered.hpp"

int main() {
  bsp_begin(bsp_nprocs());
  int area[4] = {0, 0, 0, 0};
  const int values[2] = {1, 2};
  {
    Registered<int> reg(area, 4);
    bsp_sync();
    const int next = (bsp_pid() + 1) % bsp_nprocs();
    reg.put_to(next, values, 0, 2);  // fine
    bsp_sync();
    reg.put_to(next, values, 3, 2);  // WRONG: elements 3..4 of a 4-element area
    bsp_sync();
  }
  bsp_end();
  return 0;
}
