#include "runtime/fibers/context_switch.hpp"

#include <cstdlib>

// Sanitizer fiber interfaces, resolved only when the sanitizer runtime is linked in.
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size) __attribute__((weak));
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, std::size_t* size_old)
    __attribute__((weak));
void* __tsan_get_current_fiber(void) __attribute__((weak));
void* __tsan_create_fiber(unsigned flags) __attribute__((weak));
void __tsan_destroy_fiber(void* fiber) __attribute__((weak));
void __tsan_switch_to_fiber(void* fiber, unsigned flags) __attribute__((weak));
}

namespace bspcheck::rt {

namespace detail {
ContextSlot* g_entering = nullptr;
const bool g_fiber_hooks = __sanitizer_start_switch_fiber != nullptr || __tsan_switch_to_fiber != nullptr;
}  // namespace detail

namespace {

using detail::g_entering;
ContextSlot* g_leaving = nullptr;  // the slot being left (its bounds are learned by ASan)

inline void before_switch(ContextSlot* from, ContextSlot& to) {
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(from ? &from->asan_fake_stack : nullptr, to.stack_bottom, to.stack_size);
  if (__tsan_switch_to_fiber) {
    if (from && !from->tsan_fiber) from->tsan_fiber = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(to.tsan_fiber, 0);
  }
  g_leaving = from;
  g_entering = &to;
}

inline void after_switch(ContextSlot* self) {
  if (__sanitizer_finish_switch_fiber) {
    const void* bottom = nullptr;
    std::size_t size = 0;
    __sanitizer_finish_switch_fiber(self ? self->asan_fake_stack : nullptr, &bottom, &size);
    if (g_leaving && !g_leaving->stack_bottom) {
      g_leaving->stack_bottom = bottom;
      g_leaving->stack_size = size;
    }
  }
}

void trampoline(fctx::transfer_t t) {
  // t.data is the slot that switched to us: save its context so it can be resumed later.
  if (auto* from = static_cast<ContextSlot*>(t.data)) from->ctx = t.fctx;
  ContextSlot* self = g_entering;
  after_switch(nullptr);
  self->entry(self->entry_arg);
  std::abort();  // entry functions leave through exit_context
}

}  // namespace

void detail::switch_context_with_hooks(ContextSlot& from, ContextSlot& to) {
  before_switch(&from, to);
  fctx::transfer_t t = fcontext_jump(to.ctx, &from);
  if (auto* prev = static_cast<ContextSlot*>(t.data)) prev->ctx = t.fctx;
  after_switch(&from);
}

void exit_context(ContextSlot& dying, ContextSlot& to) {
  (void)dying;
  before_switch(nullptr, to);
  g_leaving = nullptr;
  fcontext_jump(to.ctx, nullptr);
  std::abort();  // nobody resumes a context that has exited
}

void make_context(ContextSlot& slot, void* stack_top, std::size_t stack_size, void (*entry)(void*), void* arg) {
  slot.ctx = fctx::make_fcontext(stack_top, stack_size, &trampoline);
  slot.stack_bottom = static_cast<char*>(stack_top) - stack_size;
  slot.stack_size = stack_size;
  slot.entry = entry;
  slot.entry_arg = arg;
  if (__tsan_create_fiber) slot.tsan_fiber = __tsan_create_fiber(0);
}

void destroy_context(ContextSlot& slot) {
  if (__tsan_destroy_fiber && slot.tsan_fiber && slot.entry) __tsan_destroy_fiber(slot.tsan_fiber);
  slot.tsan_fiber = nullptr;
  slot.ctx = nullptr;
}

bool asan_present() { return __sanitizer_start_switch_fiber != nullptr; }
bool tsan_present() { return __tsan_switch_to_fiber != nullptr; }

}  // namespace bspcheck::rt
