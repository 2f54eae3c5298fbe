#include "runtime/executable/program_unwinder.hpp"

#include <link.h>

#include <cstdint>

#include "runtime/executable/executable_at_load.hpp"

namespace bspcheck::rt {

namespace {

using TraceFn = int (*)(void* context, void* arg);
using BacktraceFn = int (*)(TraceFn, void*);
BacktraceFn g_program_backtrace = nullptr;

int main_program_base(dl_phdr_info* info, std::size_t, void* out) {
  *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
  return 1;  // the first object is the executable
}

// At load, before any process runs (and before a fork server's worker snapshots its memory).
__attribute__((constructor)) void find_program_unwinder() {
  const std::uint64_t value = executable_at_load().own_unwind_backtrace;
  if (value == 0) return;
  std::uintptr_t base = 0;
  dl_iterate_phdr(&main_program_base, &base);
  g_program_backtrace = reinterpret_cast<BacktraceFn>(base + value);
}

int stop_at_once(void*, void*) { return 5; }  // _URC_END_OF_STACK: anything but _URC_NO_REASON stops

}  // namespace

void prime_program_unwinder() {
  if (g_program_backtrace) g_program_backtrace(&stop_at_once, nullptr);
}

bool program_frames_unwind() { return g_program_backtrace || !executable_at_load().own_personality_and_unwinder; }

}  // namespace bspcheck::rt
