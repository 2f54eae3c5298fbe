// A cBSP send past the end of a C++ global (a mangled name, which the finding demangles): built
// with AddressSanitizer against a plain runtime, the demangler's block comes from the sanitizer's
// allocator and must go back to it (tests/robustness/os_processes_test.sh).
#include <bsp.h>
#include <cbsp.h>

#include <cstdio>

namespace halo {
int from_left[3];
int checksum;
}  // namespace halo

int main() {
  bsp_begin(bsp_nprocs());
  cBSP_initialize();
  const int me = bsp_pid(), p = bsp_nprocs();
  int row[4] = {me, me + 1, me + 2, me + 3};
  halo::checksum = 7;
  cBSP_send((me + 1) % p, halo::from_left, row, sizeof row, nullptr);
  cBSP_nsync(1);
  std::printf("process %d: %d %d\n", me, halo::from_left[0], halo::checksum);
  bsp_end();
  return 0;
}
