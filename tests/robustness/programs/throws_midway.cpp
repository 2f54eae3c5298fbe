// throws_midway.cpp: process 1 throws an exception that nothing catches, from a library call
// (std::vector::at) in a helper, after other processes threw and caught their own. The finding
// must name the helper's line (THROW), with the stack to main through the line that called the
// helper (CALLER), and the last BSPlib call (LAST). Every process first throws from the same
// helper through another caller (probe) and catches it: the runtime keeps such stacks to spare
// unwinding the next throw, and must not take the uncaught throw's for one of them.
#include <bsp.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

static int entry(const std::vector<int>& v, int i) { return v.at(static_cast<std::size_t>(i)); /* THROW */ }

static int probe(const std::vector<int>& v, int i) {
  try {
    return entry(v, i);
  } catch (const std::out_of_range&) {
    return 0;
  }
}

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
  for (int k = 0; k < 10; ++k) value += probe(table, 5);
  bsp_sync(); /* LAST */
  value += entry(table, pid); /* CALLER: process 1 reads past the table's end */
  std::printf("process %d: %d\n", pid, value);
  bsp_sync();
  bsp_end();
  return 0;
}
