// process.hpp: one BSP process: its execution context and what the superstep engine keeps
// per process between barriers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/checker.hpp"
#include "engine/core/process_output.hpp"
#include "runtime/fibers/context_switch.hpp"
#include "runtime/fibers/fiber_stack.hpp"
#include "runtime/base/hash.hpp"
#include "runtime/base/huge_page_allocator.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

enum class ProcState : std::uint8_t {
  runnable,    // may be chosen to run at the next switch point
  in_sync,     // waiting in bsp_sync for the others
  in_end,      // waiting in bsp_end for the others
  local_wait,  // blocked in a counting/lazy sync until its own predicate holds (engine/core/local_sync.hpp)
  finished,    // its context has exited
};

struct PushRequest {
  const void* addr;
  long size;
  Site site;
};

struct PopRequest {
  const void* addr;
  Site site;
  // How many bsp_push_reg calls the process had made in this superstep before this pop: its
  // place in program order among the pushes, which the barrier follows.
  std::size_t pushes_before;
};

// What every BSPlib call and switch touches comes first, so that with the record aligned to a
// cache line it is all in one line (the call site and name written at each call, the state, the
// context's saved stack pointer at the start of `slot`): a superstep of p processes that only
// sync then reads and writes one line of each record.
struct alignas(64) Process {
  // The last BSPlib call, for diagnostics (timeouts, crashes, superstep mismatches).
  Site site;
  const char* call = "bsp_begin";
  int pid = 0;
  ProcState state = ProcState::runnable;
  bool started = false;  // its context has begun running (process 0 always has)
  bool begun = false;    // it has passed through bsp_begin
  // bsp_begin calls refused inside the running section (a nested SPMD section, as MulticoreBSP's
  // hierarchical runs make): the bsp_end that closes each is theirs, not the section's.
  std::uint8_t refused_begins = 0;
  ContextSlot slot;  // slot.ctx, its first member, is in the first line
  FiberStack stack;  // none for a process that runs on the thread that called bsp_begin

  // Requests that take effect at the next barrier.
  std::vector<PushRequest> pushes;
  std::vector<PopRequest> pops;
  int tagsize_request = -1;
  Site tagsize_site;

  // Open level-1 brackets (bspcheck_level1_enter), innermost last.
  std::vector<checker::HygieneState> level1;

  ProcessOutput output;  // what it printed (engine/core/process_output.hpp)

  // Its bsp_time at its previous bsp_dtime (the Oxford toolset's, engine/frontends/oxford_api.cpp); 0, the
  // time of bsp_begin, before the first.
  double dtime_last = 0.0;
};

// Every process's record, in pid order: at a large p they are read in a random schedule's order,
// so they sit on huge pages where the kernel gives them (runtime/base/huge_page_allocator.hpp).
using ProcessTable = PerProcess<Process>;

}  // namespace bspcheck::rt
