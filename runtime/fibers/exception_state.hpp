// exception_state.hpp: the C++ runtime's exception state, which separate processes would each
// have: the stack of exceptions being handled (what `throw;` rethrows, what a handler's `e`
// refers to, what __cxa_end_catch destroys) and the count of exceptions thrown and not yet caught
// (std::uncaught_exceptions()). The C++ runtime keeps it per thread; every process of a world
// runs on the world's one thread, so the world saves the running process's state and puts back
// the next one's at every switch: without that, a process that calls bsp_sync inside a handler
// has its exception destroyed by another process's handler, and rethrows another's.
#pragma once

#include <cxxabi.h>

#include <cstddef>
#include <vector>

namespace bspcheck::rt {

class ExceptionStates {
 public:
  // The Itanium C++ ABI's __cxa_eh_globals, the object __cxa_get_globals() returns (libstdc++'s
  // unwind-cxx.h, libc++abi's cxa_exception.h; ARM's EHABI adds a third field, not handled).
  struct alignas(16) Globals {
    void* caught_exceptions = nullptr;
    unsigned int uncaught_exceptions = 0;
  };
  static_assert(sizeof(Globals) == 16);

  // Every process starts with no exception in flight. The thread's object is looked up once:
  // the world runs on one thread.
  explicit ExceptionStates(int nprocs)
      : live_(reinterpret_cast<Globals*>(abi::__cxa_get_globals())), of_(static_cast<std::size_t>(nprocs)) {}

  // Process `from` stops running and `to` starts or resumes. Whole 16-byte copies (the C++
  // runtime's object is 16 bytes, its padding included): one load and one store each.
  void switch_to(int from, int to) {
    __builtin_memcpy(&of_[static_cast<std::size_t>(from)], live_, sizeof(Globals));
    __builtin_memcpy(live_, &of_[static_cast<std::size_t>(to)], sizeof(Globals));
  }
  // Process `to` runs after one that has ended (whose state, no handler left, is dropped).
  void resume(int to) { __builtin_memcpy(live_, &of_[static_cast<std::size_t>(to)], sizeof(Globals)); }

  // The thread's state, for a host that hands the thread to the processes and takes it back.
  static Globals take() {
    Globals* live = reinterpret_cast<Globals*>(abi::__cxa_get_globals());
    const Globals g = *live;
    *live = Globals{};
    return g;
  }
  static void give_back(const Globals& g) { *reinterpret_cast<Globals*>(abi::__cxa_get_globals()) = g; }

 private:
  Globals* live_;
  std::vector<Globals> of_;
};

}  // namespace bspcheck::rt
