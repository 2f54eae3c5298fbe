// private_globals.hpp: each BSP process's own copy of the executable's writable globals,
// statics and thread-locals (program_image.hpp says which memory that is), as in every real
// BSPlib, where a process is an OS process.
//
// How (measured against remapping and PIE copies in docs/performance.md): the executable's
// private ranges are swapped by copying at every process switch. The live ranges hold the
// running process's values; every other process's values wait in its slot. For the small data
// segments of BSPlib programs (a few hundred bytes to a few KiB) two short copies cost less than
// one system call, and nothing else in the runtime changes: programs, pointers and debuggers see
// globals at their usual addresses.
//
// The engine reaches another process's memory (puts, gets, unbuffered operations, the checker's
// hashes) through canonical addresses: an address in a private range, seen as process k's,
// becomes the matching address in k's slot. Canonical addresses of different processes differ,
// so the checker's overlap and hazard rules work on them unchanged. Before the engine touches
// canonical memory it flushes the running process's live values to its slot (flush) and, after
// writing, loads them back (reload).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/program_image.hpp"

namespace bspcheck::rt {

class PrivateGlobals {
 public:
  // How processes 1..p-1 start. `rerun_constructors`: from the program's initial image, running
  // the executable's constructors on their own (bsp_begin-first programs, as an MPI-based BSPlib
  // starts every process from main). Otherwise from `start` (bsp_init programs: the data as it
  // was when bsp_init was called), without constructors.
  PrivateGlobals(const ProgramImage& image, int nprocs, bool rerun_constructors, std::vector<std::byte> start);
  ~PrivateGlobals();
  PrivateGlobals(const PrivateGlobals&) = delete;
  PrivateGlobals& operator=(const PrivateGlobals&) = delete;

  // argc/argv/envp handed to the executable's constructors when they run again for a process.
  static void set_main_arguments(int argc, char** argv);

  int nprocs() const { return p_; }

  // Nothing to privatise: an executable without writable data of its own.
  bool empty() const { return image_.total == 0; }

  // Process `from` stops running and `to` starts or resumes.
  void switch_to(int from, int to) {
    save(from);
    load(to);
    errno_of_[static_cast<std::size_t>(from)] = *errno_slot_;
    *errno_slot_ = errno_of_[static_cast<std::size_t>(to)];
    resident_ = to;
  }

  // The address where process `owner`'s copy of `p` can be reached while any process runs.
  void* canonical(int owner, const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    std::size_t at = 0;
    for (const PrivateRange& r : image_.ranges) {
      const auto lo = reinterpret_cast<std::uintptr_t>(r.lo);
      if (a - lo < r.size) return slot(owner) + at + (a - lo);
      at += r.size;
    }
    return const_cast<void*>(p);
  }
  bool is_private(const void* p) const { return canonical(0, p) != p; }
  // p is a canonical address in some process's slot (never poisoned: no program code reads it).
  bool in_slot(const void* p) const {
    return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(slots_) < slots_bytes_;
  }

  // The running process's live values to its slot, before the engine reads canonical memory;
  // and back, after the engine has written it.
  void flush() { save(resident_); }
  void reload() { load(resident_); }

  // On process `pid`'s own context, before its SPMD function: runs the executable's
  // constructors for it when it starts from the initial image. `prepare` runs first (the
  // output capture re-installs its streams in the fresh copy of stdout and std::cout).
  void start_process(int pid, const std::function<void()>& prepare);
  // On process `pid`'s own context, after its SPMD function: the destructors its constructors
  // and static locals registered (the C library runs them at exit in a separate process).
  void finish_process(int pid);

  // The C++ runtime registers destructors of static objects through __cxa_atexit; those of the
  // executable registered while process pid >= 1 runs belong to that process. True when taken.
  bool take_exit_handler(void (*fn)(void*), void* arg, void* dso);

  // The process whose values are live (the running one), and the instance of the running world.
  int resident() const { return resident_; }
  static PrivateGlobals* active() { return active_; }

 private:
  std::byte* slot(int pid) const { return slots_ + static_cast<std::size_t>(pid) * stride_; }
  void save(int pid);
  void load(int pid);

  const ProgramImage& image_;
  int p_;
  bool rerun_constructors_;
  std::vector<std::byte> start_;  // what processes 1..p-1 start from
  std::size_t stride_;
  std::byte* slots_ = nullptr;     // p slots of stride_ bytes (mmap'd; untouched until used)
  std::size_t slots_bytes_ = 0;
  std::vector<std::uint8_t> loaded_once_;  // a process's slot holds its values
  std::vector<int> errno_of_;
  int* errno_slot_;
  int resident_ = 0;
  struct ExitHandler {
    void (*fn)(void*);
    void* arg;
  };
  std::vector<std::vector<ExitHandler>> exit_handlers_;
  static PrivateGlobals* active_;
};

}  // namespace bspcheck::rt
