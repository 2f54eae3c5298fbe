// throws_midway.cpp: process 1 throws an exception that nothing catches, from a library call
// (std::vector::at) in a helper, after other processes threw and caught their own. The finding
// must name the helper's line (THROW), with the stack to main, and the last BSPlib call (LAST).
#include <bsp.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

static int entry(const std::vector<int>& v, int i) { return v.at(static_cast<std::size_t>(i)); /* THROW */ }

static int caught(int pid) {
  try {
    throw std::runtime_error("handled");
  } catch (const std::exception&) {
    return pid;
  }
}

int main() {
  bsp_begin(bsp_nprocs());
  const int pid = bsp_pid();
  std::vector<int> table(1, 7);
  int value = caught(pid);
  bsp_sync(); /* LAST */
  value += entry(table, pid);  // process 1 reads past the table's end
  std::printf("process %d: %d\n", pid, value);
  bsp_sync();
  bsp_end();
  return 0;
}
