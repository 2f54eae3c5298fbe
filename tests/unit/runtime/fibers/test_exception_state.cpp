// Each process's C++ exception state is its own (runtime/fibers/exception_state.hpp): the exception a
// handler refers to, what `throw;` rethrows and std::uncaught_exceptions() stay the process's own
// across the switches of its BSPlib calls, as in separate processes.
#include "unit_helpers.hpp"

#include <exception>
#include <stdexcept>
#include <string>

namespace {

using unit::run;

// Long enough to live on the heap, so that a message destroyed too early reads as garbage.
std::string message(const char* what, int pid) { return std::string(60, 'x') + what + std::to_string(pid); }

TEST(ExceptionState, HandlersKeepTheirOwnExceptionAcrossSyncs) {
  for (int p : {3, 4}) {
    for (std::uint64_t seed : unit::seeds(8)) {
      std::vector<std::string> caught(static_cast<std::size_t>(p)), rethrown(static_cast<std::size_t>(p));
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        const int pid = bsp_pid();
        try {
          throw std::runtime_error(message("caught", pid));
        } catch (const std::exception& e) {
          bsp_sync();
          bsp_sync();
          caught[static_cast<std::size_t>(pid)] = e.what();
        }
        try {
          try {
            throw std::runtime_error(message("rethrown", pid));
          } catch (...) {
            bsp_sync();
            throw;  // this process's exception, whoever ran meanwhile
          }
        } catch (const std::exception& e) {
          rethrown[static_cast<std::size_t>(pid)] = e.what();
        }
        bsp_end();
      });
      EXPECT_RUN_OK(r);
      for (int pid = 0; pid < p; ++pid) {
        EXPECT_EQ(caught[static_cast<std::size_t>(pid)], message("caught", pid)) << "p=" << p << " seed=" << seed;
        EXPECT_EQ(rethrown[static_cast<std::size_t>(pid)], message("rethrown", pid)) << "p=" << p << " seed=" << seed;
      }
    }
  }
}

// A process unwinding an exception counts it in std::uncaught_exceptions(); one that is not
// unwinding counts none, while the others unwind around it.
struct SyncWhileUnwinding {
  std::vector<int>& seen;
  int pid;
  ~SyncWhileUnwinding() {
    bsp_sync();
    seen[static_cast<std::size_t>(pid)] = std::uncaught_exceptions();
  }
};

TEST(ExceptionState, UncaughtExceptionsAreCountedPerProcess) {
  for (int p : {3, 4}) {
    for (std::uint64_t seed : unit::seeds(8)) {
      std::vector<int> seen(static_cast<std::size_t>(p), -1);
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        const int pid = bsp_pid();
        if (pid % 2 == 0) {
          try {
            SyncWhileUnwinding guard{seen, pid};
            throw 1;
          } catch (int) {
          }
        } else {
          bsp_sync();
          seen[static_cast<std::size_t>(pid)] = std::uncaught_exceptions();
        }
        bsp_end();
      });
      EXPECT_RUN_OK(r);
      for (int pid = 0; pid < p; ++pid)
        EXPECT_EQ(seen[static_cast<std::size_t>(pid)], pid % 2 == 0 ? 1 : 0)
            << "process " << pid << ", p=" << p << " seed=" << seed;
    }
  }
}

// A process whose handlers have all ended holds no exception after its next switches, while
// others still hold theirs: what it held over a sync is not brought back with it.
TEST(ExceptionState, AHandlerThatEndedLeavesNothingBehind) {
  for (int p : {3, 4}) {
    for (std::uint64_t seed : unit::seeds(8)) {
      std::vector<int> clean(static_cast<std::size_t>(p), -1), held(static_cast<std::size_t>(p), -1);
      auto r = run(p, seed, [&] {
        bsp_begin(p);
        const int pid = bsp_pid();
        try {
          throw pid;
        } catch (int) {
          bsp_sync();  // held over a switch by every process
        }
        if (pid % 2 == 0) {
          bsp_sync();  // the handler has ended: nothing to hold
          clean[static_cast<std::size_t>(pid)] = std::current_exception() == nullptr && std::uncaught_exceptions() == 0;
          bsp_sync();
        } else {
          try {
            throw pid;  // the odd processes hold one again while the even ones run
          } catch (int) {
            bsp_sync();
            bsp_sync();
            try {
              throw;  // what this process holds, brought back with it
            } catch (int again) {
              held[static_cast<std::size_t>(pid)] = again == pid;
            }
          }
        }
        bsp_end();
      });
      EXPECT_RUN_OK(r);
      for (int pid = 0; pid < p; ++pid) {
        if (pid % 2 == 0) EXPECT_EQ(clean[static_cast<std::size_t>(pid)], 1) << "process " << pid << " seed=" << seed;
        else EXPECT_EQ(held[static_cast<std::size_t>(pid)], 1) << "process " << pid << " seed=" << seed;
      }
    }
  }
}

}  // namespace
