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
#include <cstdint>
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
      : live_(reinterpret_cast<Globals*>(abi::__cxa_get_globals())),
        held_((static_cast<std::size_t>(nprocs) + 63) / 64) {}

  // Process `from` stops running and `to` starts or resumes. Almost always neither has an
  // exception in flight, and then only a bit of each is read: at a large p a process's saved
  // state is a line last touched p switches ago (a cache miss, on a page of its own), while the
  // bits of 10^6 processes are 125 KiB. A saved state is a whole 16-byte copy (the C++ runtime's
  // object is 16 bytes, its padding included).
  // The thread's object is read and written by copies only: it need not be 16-byte aligned
  // (a program's private thread-local storage places it at 8).
  void switch_to(int from, int to) {
    Globals now;
    __builtin_memcpy(&now, live_, sizeof now);
    if (now.caught_exceptions != nullptr || now.uncaught_exceptions != 0) {
      if (of_.empty()) of_.resize(held_.size() * 64);  // at the first exception held over a switch
      of_[static_cast<std::size_t>(from)] = now;
      mark(from, true);
    } else if (held(from)) {
      mark(from, false);
    }
    resume(to);
  }
  // Process `to` runs after one that has ended (whose state, no handler left, is dropped).
  void resume(int to) {
    if (held(to)) __builtin_memcpy(live_, &of_[static_cast<std::size_t>(to)], sizeof(Globals));
    else __builtin_memset(static_cast<void*>(live_), 0, sizeof(Globals));
  }

  // The thread's state, for a host that hands the thread to the processes and takes it back.
  static Globals take() {
    Globals* live = reinterpret_cast<Globals*>(abi::__cxa_get_globals());
    const Globals g = *live;
    *live = Globals{};
    return g;
  }
  static void give_back(const Globals& g) { *reinterpret_cast<Globals*>(abi::__cxa_get_globals()) = g; }

 private:
  bool held(int pid) const { return (held_[static_cast<std::size_t>(pid) / 64] >> (pid % 64)) & 1; }
  void mark(int pid, bool held) {
    const std::uint64_t bit = std::uint64_t{1} << (pid % 64);
    std::uint64_t& word = held_[static_cast<std::size_t>(pid) / 64];
    word = held ? word | bit : word & ~bit;
  }

  Globals* live_;
  std::vector<Globals> of_;          // a process's state while it does not run, where held_
  std::vector<std::uint64_t> held_;  // a bit per process: its saved state has an exception
};

}  // namespace bspcheck::rt
