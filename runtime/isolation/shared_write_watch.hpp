// shared_write_watch.hpp: finds variables that processes share although separate processes
// would not (rule global-shared): the data of shared libraries the program loads (which cannot
// be made private), and every global of the executable when globals are shared
// (--globals=shared, or the MulticoreBSP dialect, where two processes writing one global in a
// superstep is a data race). At every switch the bytes the outgoing process changed since it was
// switched in are found by comparing with a snapshot; at the barrier, bytes written by two
// processes in the superstep are reported, named by their symbol.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/executable/elf_symbols.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class SharedWriteWatch {
 public:
  // Null when there is nothing to watch. `executable_shared`: watch the executable's variables
  // too. Watching is skipped (with a note on `note`) above kMaxWatchedBytes: comparing more at
  // every switch would cost more than the check is worth.
  static std::unique_ptr<SharedWriteWatch> create(bool executable_shared, std::FILE* note);
  static constexpr std::size_t kMaxWatchedBytes = 256 << 10;

  // Process pid has run until its call `call` at `site`: what it changed is its write.
  void collect(int pid, const Site& site, const char* call);

  struct Conflict {
    std::string variable;  // "counter" (or "an unnamed variable at 0x...")
    std::string object;    // the executable or the shared library that holds it
    int first, second;     // the two processes
    Site first_site, second_site;
    const char* first_call;
    const char* second_call;
  };
  // At the barrier: one conflict per variable and pair of processes; clears the superstep's log.
  std::vector<Conflict> take_conflicts();
  // After the engine has written memory (the barrier): those bytes are nobody's write.
  void resnapshot();

 private:
  struct Watched {
    std::byte* lo;
    std::size_t size;
    std::size_t at;  // offset in snapshot_
    std::shared_ptr<const ElfSymbols> symbols;
    std::string object;
  };
  struct Write {
    std::uintptr_t lo, hi;
    int pid;
    Site site;
    const char* call;
    const Watched* range;
  };
  void watch(std::uintptr_t lo, std::uintptr_t hi, const std::shared_ptr<const ElfSymbols>& symbols,
             const std::string& object);

  std::vector<Watched> ranges_;
  std::vector<std::byte> snapshot_;
  std::vector<Write> writes_;
};

}  // namespace bspcheck::rt
