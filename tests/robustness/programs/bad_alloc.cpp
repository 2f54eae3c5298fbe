// bad_alloc.cpp: process 1 sizes a vector with 2^50 elements (8 PiB, more than any address
// space); the allocation throws std::bad_alloc, which nothing catches. bsp-check reports out-of-memory at the line that
// allocated (marked ALLOC), not at the process's last BSPlib call.
#include <bsp.h>

#include <cstdio>
#include <vector>

static std::vector<double> make_buffer(long count) {
  return std::vector<double>(static_cast<std::size_t>(count));  // ALLOC
}

int main() {
  bsp_begin(bsp_nprocs());
  bsp_sync();
  const long count = bsp_pid() == 1 ? 1L << 50 : 16;
  std::vector<double> v = make_buffer(count);
  std::printf("bad_alloc: pid %d size %zu\n", bsp_pid(), v.size());
  bsp_sync();
  bsp_end();
  return 0;
}
