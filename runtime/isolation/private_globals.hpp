// private_globals.hpp: each BSP process's own copy of the executable's writable globals,
// statics and thread-locals (program_image.hpp says which memory that is), as in every real
// BSPlib, where a process is an OS process.
//
// Two ways to switch the live values at a process switch, chosen by size (measured in
// docs/performance.md, "Per-process globals"):
//  - copied: the live bytes go to the outgoing process's slot and the incoming process's slot
//    comes back. Two short copies cost less than a system call for the few hundred bytes to few
//    KiB of data that BSPlib programs usually have; the TLS block is always copied.
//  - remapped (data of `remap_at` bytes or more, as SimGrid's SMPI does): every process's copy
//    lives in one memfd, and a switch maps the incoming process's part over the data segment
//    with one mmap, whatever the size.
// Programs, pointers and debuggers see globals at their usual addresses either way.
//
// The engine reaches another process's memory (puts, gets, unbuffered operations, the checker's
// hashes) through canonical addresses: an address in a private range, seen as process k's,
// becomes the matching address in k's slot (or k's part of the memfd). Canonical addresses of
// different processes differ, so the checker's overlap and hazard rules work on them unchanged.
// Before the engine touches canonical memory it flushes the running process's copied bytes to
// its slot (flush) and, after writing, loads them back (reload); remapped parts need neither.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/executable/program_image.hpp"

namespace bspcheck::rt {

class PrivateGlobals {
 public:
  // What each process has of its own.
  //  - process: all that a separate OS process would (every real BSPlib but MulticoreBSP): the
  //    image's ranges, errno, the environment, its static objects' destructors (and, through
  //    active(), its C library state in libc_state.cpp).
  //  - thread: what a thread has when the globals are shared (--globals=shared, MulticoreBSP,
  //    whose processes are threads): the image is the thread-local block alone
  //    (thread_local_image()), errno; the environment and the C library's state stay shared.
  // Either way each process's thread-local objects are destroyed when it ends, as at a thread's
  // exit (take_thread_exit_handler).
  enum class Scope { process, thread };

  // How processes 1..p-1 start. `rerun_constructors`: from the program's initial image, running
  // the executable's constructors on their own, as an MPI-based BSPlib starts every process from
  // the program's start; then, where `start` is given (bsp_init programs: the data as it was when
  // bsp_init was called), with what main set before bsp_init (take_what_main_set). Otherwise
  // (in-process callers) from `start`, or from the data as it is now, without constructors.
  PrivateGlobals(const ProgramImage& image, int nprocs, bool rerun_constructors, std::vector<std::byte> start,
                 std::size_t remap_at, Scope scope = Scope::process);
  ~PrivateGlobals();
  PrivateGlobals(const PrivateGlobals&) = delete;
  PrivateGlobals& operator=(const PrivateGlobals&) = delete;

  // bsp_init programs: called once, at the first process that starts, with the addresses of the
  // globals that main pointed at heap blocks before bsp_init (take_what_main_set gives every
  // process those pointers: they share the blocks, which under BSPonMPI would be each process's
  // own). For a note: bsp-check cannot copy the blocks.
  void on_shared_heap_pointers(std::function<void(const std::vector<std::uintptr_t>&)> note) {
    note_shared_heap_ = std::move(note);
  }

  // argc/argv/envp handed to the executable's constructors when they run again for a process.
  static void set_main_arguments(int argc, char** argv);

  int nprocs() const { return p_; }
  // Processes 1..p-1 start the program again (a program's run): its constructors, and the C
  // library state of its start (libc_start_state.hpp), are theirs.
  bool restarts_processes() const { return rerun_constructors_; }
  bool remapped() const { return remap_.fd >= 0; }

  // Process `from` stops running and `to` starts or resumes. `environ` is saved before the data
  // and put back after it: it is the executable's (a copy relocation, switched with the data) or
  // the C library's, and either way each process's own (libc_state.cpp edits only the arrays a
  // process made for itself). In the thread scope the slot is a stand-in, so the real `environ`
  // stays shared without a test here.
  void switch_to(int from, int to) {
    environ_of_[static_cast<std::size_t>(from)] = *environ_slot_;
    save(from);
    load(to);
    errno_of_[static_cast<std::size_t>(from)] = *errno_slot_;
    *errno_slot_ = errno_of_[static_cast<std::size_t>(to)];
    *environ_slot_ = environ_of_[static_cast<std::size_t>(to)];
    resident_ = to;
  }

  // The address where process `owner`'s copy of `p` can be reached while any process runs.
  void* canonical(int owner, const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    if (remapped() && a - remap_.lo < remap_.size)
      return remap_.view + static_cast<std::size_t>(owner) * remap_.size + (a - remap_.lo);
    std::size_t at = 0;
    for (const PrivateRange& r : copied_) {
      const auto lo = reinterpret_cast<std::uintptr_t>(r.lo);
      if (a - lo < r.size) return slot(owner) + at + (a - lo);
      at += r.size;
    }
    return const_cast<void*>(p);
  }
  bool is_private(const void* p) const { return canonical(0, p) != p; }
  // p is a canonical address of some process (never poisoned: no program code reads it there).
  bool in_slot(const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a - reinterpret_cast<std::uintptr_t>(slots_) < slots_bytes_ ||
           (remapped() &&
            a - reinterpret_cast<std::uintptr_t>(remap_.view) < remap_.size * static_cast<std::size_t>(p_));
  }

  // The running process's live copied bytes to its slot, before the engine reads canonical
  // memory; and back, after the engine has written it.
  void flush() { save_copied(resident_); }
  void reload() { load_copied(resident_); }

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
  // Destructors of thread-local objects (__cxa_thread_atexit_impl): the C library keeps one list
  // for the thread, run at its exit on whichever copy of the block is live then; those of an
  // object in the executable's thread-local block registered while process pid >= 1 runs belong
  // to that process and run first when it ends. True when taken.
  bool take_thread_exit_handler(void (*fn)(void*), void* obj, void* dso);

  // The process whose values are live (the running one), and the instance of the running world:
  // active() when processes own all that separate processes would (the process scope), running()
  // in either scope.
  int resident() const { return resident_; }

  // For debuggers (engine/core/world.hpp, bspcheck_debug): process k's copy of the private range
  // [lo, lo+size) is at base + k*stride while k is not resident (the resident's is in place), and
  // holds its values once ran_flags()[k] is set (a copied slot is filled when k first leaves).
  struct DebugRange {
    std::uint64_t lo, size, base, stride;
  };
  std::vector<DebugRange> debug_ranges() const;
  const int* resident_address() const { return &resident_; }
  const std::uint8_t* ran_flags() const { return ran_.data(); }
  static PrivateGlobals* active() { return active_; }
  static PrivateGlobals* running() { return running_; }

 private:
  std::byte* slot(int pid) const { return slots_ + static_cast<std::size_t>(pid) * stride_; }
  void save(int pid) { save_copied(pid); }
  void load(int pid);
  void save_copied(int pid);
  void load_copied(int pid);
  const std::byte* start_bytes() const;  // what a process that never ran starts from
  void take_what_main_set();             // a bsp_init program's process, after its constructors
  std::function<void(const std::vector<std::uintptr_t>&)> note_shared_heap_;
  void set_up_remap(const PrivateRange& data);
  void map_part(int pid);

  const ProgramImage& image_;
  int p_;
  bool rerun_constructors_;
  std::vector<std::byte> start_;
  std::vector<PrivateRange> copied_;                       // ranges switched by copying, in image order
  std::vector<std::size_t> copied_at_;                     // where each copied range starts in the image's bytes
  std::size_t stride_ = 0;                                 // bytes of one slot (the copied ranges, rounded up)
  static constexpr std::size_t kSlotsFromHeap = 64 << 10;  // larger slots are mapped
  std::byte* slots_ = nullptr;                             // p slots (mmap'd: a slot's pages are touched when used)
  std::size_t slots_bytes_ = 0;
  struct Remap {
    int fd = -1;
    std::uintptr_t lo = 0;
    std::size_t size = 0;                       // the data range rounded up to whole pages
    std::size_t image_at = 0, image_bytes = 0;  // the range's bytes in the image
    std::size_t range_at = 0;                   // where the range starts in the region (after the GOT)
    std::byte* view = nullptr;                  // every process's part, side by side
  } remap_;
  std::vector<std::uint8_t> ran_;  // a process has been switched out at least once
  std::vector<int> errno_of_;
  int* errno_slot_;
  // Process 0 goes on with the environment of bsp_begin; processes 1..p-1 start with the
  // program's start environment when they start the program again (libc_start_state.hpp).
  std::vector<char**> environ_of_;
  char*** environ_slot_;
  int resident_ = 0;
  struct ExitHandler {
    void (*fn)(void*);
    void* arg;
  };
  std::vector<std::vector<ExitHandler>> exit_handlers_;
  std::vector<std::vector<ExitHandler>> thread_exit_handlers_;
  Scope scope_;
  char** shared_environ_stand_in_ = nullptr;  // the thread scope's environ slot
  static PrivateGlobals* active_;
  static PrivateGlobals* running_;
};

}  // namespace bspcheck::rt
