// end_guard_library.cpp: a C++ library whose SPMD function holds an object with a destructor,
// called from a C executable that has no exception tables of its own (end_guard.c). The
// destructor runs in every process at the end of the SPMD part, as in separate processes: the
// library's frames have a cleanup, so bsp-check unwinds processes 1..p-1 at bsp_end.
#include <cstdio>

#include <bsp.h>

namespace {
struct Guard {
  int pid;
  ~Guard() { std::printf("process %d: destroyed\n", pid); }
};
}  // namespace

extern "C" void end_guard_spmd(void) {
  bsp_begin(bsp_nprocs());
  const Guard guard{bsp_pid()};
  std::printf("process %d: began\n", guard.pid);
  bsp_sync();
  bsp_end();
}
