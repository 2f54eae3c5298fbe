// world_memory.cpp: whose memory an address is, for interfaces that take raw addresses of another
// process's memory without registration (cBSP's destAddr, docs/cbsp.md): a process's stack, or
// the executable's data (each process's own copy of a global).
#include <pthread.h>

#include "engine/core/world.hpp"
#include "runtime/executable/program_image.hpp"

namespace bspcheck::rt {

int World::stack_owner(const void* p) const {
  for (const Process& pr : procs_)
    if (pr.stack.base && pr.stack.contains(p)) return pr.pid;
  if (procs_.empty() || procs_[0].stack.base) return -1;
  // Process 0 runs on the stack of the thread that called bsp_begin, which is the thread every
  // process runs on.
  if (!main_stack_hi_) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* lo = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        main_stack_lo_ = reinterpret_cast<std::uintptr_t>(lo);
        main_stack_hi_ = main_stack_lo_ + size;
      }
      pthread_attr_destroy(&attr);
    }
  }
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return a >= main_stack_lo_ && a < main_stack_hi_ ? 0 : -1;
}

bool World::in_program_data(const void* p) const {
  return program_image().contains(p) || (globals_ && globals_->is_private(p));
}

}  // namespace bspcheck::rt
