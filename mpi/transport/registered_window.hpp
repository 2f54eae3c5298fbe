// registered_window.hpp: this rank's registered memory in an MPI window that the other ranks read
// at any moment, without this rank's part (one-sided, passive target): how a bsp_hpget's caller
// learns what its source held at the call, where the data itself is served at the sync
// (exchange.hpp). The caller compares it with what the sync delivered: hp-src-modified of a
// bsp_hpget, decided by its caller (docs/checks.md). Only made when that rule is on.
//
// A dynamic window (MPI_Win_create_dynamic): a registration's pages are attached at its
// bsp_push_reg, before any rank may name it (after the sync), and detached at the sync that pops
// it, when every rank has finished its reads of the superstep before. MPI forbids attaching memory
// twice, and registrations overlap (the same array twice, a struct and its member): only the pages
// no attached run holds yet are attached, as runs of their own that live until no registration
// holds them (AttachedRuns). Runs are whole 4 KiB pages, so a read split at page boundaries never
// crosses two.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace bspcheck::mpi {

// The runs of pages attached to the window, and what a registration changes in them (no MPI).
// Runs are disjoint and never change while attached; a registration holds every run that holds
// one of its pages, and no run is made inside its pages while it holds them, so its uncover()
// meets the runs its cover() met.
class AttachedRuns {
 public:
  static constexpr std::uintptr_t kPage = 4096;
  struct Span {
    std::uintptr_t begin, end;
    bool operator==(const Span&) const = default;
  };
  // The pages of [addr, addr + size) that no run holds, as new runs (to attach).
  std::vector<Span> cover(std::uintptr_t addr, std::uint64_t size);
  // The runs that no registration holds any more (to detach).
  std::vector<Span> uncover(std::uintptr_t addr, std::uint64_t size);
  std::vector<Span> runs() const;

 private:
  struct Run {
    std::uintptr_t end;
    int holders;
  };
  std::map<std::uintptr_t, Run>::iterator first_touching(std::uintptr_t lo);
  std::map<std::uintptr_t, Run> runs_;  // by their first byte
};

class RegisteredWindow {
 public:
  // Collective over comm. An MPI that cannot make such a window for comm (Open MPI for a single
  // rank) leaves it unmade on every rank: ok() false, and the caller decides without it.
  explicit RegisteredWindow(MPI_Comm comm);
  RegisteredWindow(const RegisteredWindow&) = delete;
  RegisteredWindow& operator=(const RegisteredWindow&) = delete;
  bool ok() const { return win_ != MPI_WIN_NULL; }
  // Collective: before MPI_Finalize (a job that MPI_Abort ends leaves it to MPI).
  void close();

  // A registration of [addr, addr + size) made (at its call) and gone (at the sync that pops it).
  void cover(const void* addr, std::int64_t size);
  void uncover(const void* addr, std::int64_t size);

  // n bytes at `addr` on rank `target` (another rank, an address its registrations cover), now.
  void read(int target, std::uint64_t addr, void* out, std::size_t n);

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  AttachedRuns runs_;
};

}  // namespace bspcheck::mpi
