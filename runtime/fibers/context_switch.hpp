// context_switch.hpp: one switch between two execution contexts (a process's fiber, the thread
// that called bsp_begin, or the host of an in-process run), on Boost.Context's fcontext.
//
// The switch tells the sanitizers about it when, and only when, their runtime is present: the
// hooks are weak symbols, so one library serves plain, ASan and TSan programs. Without them a
// switch is a few stores around one jump, inline at the caller (it is the hot path of every
// BSPlib call that hands the processor on).
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>

#include "runtime/fibers/fcontext_jump.hpp"

namespace bspcheck::rt {

namespace fctx = boost::context::detail;

// Where a suspended context can be resumed, plus what the sanitizers need to know about it.
struct ContextSlot {
  fctx::fcontext_t ctx = nullptr;
  const void* stack_bottom = nullptr;  // for ASan; learned on the first switch away from it
  std::size_t stack_size = 0;
  void* tsan_fiber = nullptr;  // for TSan
  void* asan_fake_stack = nullptr;
  void (*entry)(void*) = nullptr;  // where a context made by make_context starts
  void* entry_arg = nullptr;
};

namespace detail {
// All contexts run on one OS thread, so plain globals describe the switch in flight.
extern ContextSlot* g_entering;   // the slot being entered (a new context reads its entry there)
extern const bool g_fiber_hooks;  // a sanitizer runtime with fiber interfaces is present
void switch_context_with_hooks(ContextSlot& from, ContextSlot& to);
}  // namespace detail

// Suspends the running context (saving it into `from`) and resumes `to`. Returns when some
// other context switches back to `from`.
inline void switch_context(ContextSlot& from, ContextSlot& to) {
  if (__builtin_expect(detail::g_fiber_hooks, false)) return detail::switch_context_with_hooks(from, to);
  detail::g_entering = &to;
  fctx::transfer_t t = fcontext_jump(to.ctx, &from);
  // Whoever resumed us passed its own slot (nullptr if it has exited): save where it stopped.
  if (auto* prev = static_cast<ContextSlot*>(t.data)) prev->ctx = t.fctx;
}

// Leaves a context that will never run again and resumes `to`. Does not return.
[[noreturn]] void exit_context(ContextSlot& dying, ContextSlot& to);

// Prepares `slot` to start at entry(arg) on the given stack when first switched to. The entry
// function must end with exit_context.
void make_context(ContextSlot& slot, void* stack_top, std::size_t stack_size, void (*entry)(void* arg), void* arg);

// Releases sanitizer state of a context that has exited.
void destroy_context(ContextSlot& slot);

// The sanitizers present in this process (for messages and tests).
bool asan_present();
bool tsan_present();

}  // namespace bspcheck::rt
