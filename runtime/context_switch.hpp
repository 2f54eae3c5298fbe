// context_switch.hpp: one switch between two execution contexts (a process's fiber, the thread
// that called bsp_begin, or the host of an in-process run), on Boost.Context's fcontext.
//
// The switch tells the sanitizers about it when, and only when, their runtime is present: the
// hooks are weak symbols, so one library serves plain, ASan and TSan programs.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>

namespace bspcheck::rt {

namespace fctx = boost::context::detail;

// Where a suspended context can be resumed, plus what the sanitizers need to know about it.
struct ContextSlot {
  fctx::fcontext_t ctx = nullptr;
  const void* stack_bottom = nullptr;  // for ASan; learned on the first switch away from it
  std::size_t stack_size = 0;
  void* tsan_fiber = nullptr;          // for TSan
  void* asan_fake_stack = nullptr;
  void (*entry)(void*) = nullptr;      // where a context made by make_context starts
  void* entry_arg = nullptr;
};

// Suspends the running context (saving it into `from`) and resumes `to`. Returns when some
// other context switches back to `from`.
void switch_context(ContextSlot& from, ContextSlot& to);

// Leaves a context that will never run again and resumes `to`. Does not return.
[[noreturn]] void exit_context(ContextSlot& dying, ContextSlot& to);

// Prepares `slot` to start at entry(arg) on the given stack when first switched to. The entry
// function must end with exit_context.
void make_context(ContextSlot& slot, void* stack_top, std::size_t stack_size,
                  void (*entry)(void* arg), void* arg);

// Releases sanitizer state of a context that has exited.
void destroy_context(ContextSlot& slot);

// The sanitizers present in this process (for messages and tests).
bool asan_present();
bool tsan_present();

}  // namespace bspcheck::rt
