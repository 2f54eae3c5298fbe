// registrations.hpp: one rank's copy of the registration slots (docs/semantics.md,
// "Registration"): the k-th bsp_push_reg of a superstep on every rank forms one slot, and every
// rank keeps every rank's address and size of each live slot, gathered at the sync that makes it
// live (as BSPonMPI keeps the remote addresses). So a put or get is resolved and bounds-checked
// at the call, on the caller, as the engine does it, and names the target's address directly.
// Pushes and pops take effect at the sync, in the rank's program order; which slot each pop
// names is planned before the sync and compared across ranks through a digest.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "mpi/report/findings.hpp"

namespace bspcheck::mpi {

class Registrations {
 public:
  struct Entry {
    std::uint64_t addr = 0;  // on its own rank; 0: that rank registered NULL
    std::int64_t size = 0;
  };
  struct Call {
    bool push = false;
    std::uint64_t addr = 0;
    std::int64_t size = 0;
    CallSite site;
  };
  // What this rank's calls of the superstep do, compared across ranks at the sync.
  struct Plan {
    std::int64_t pushes = 0, pops = 0;
    std::uint64_t digest = 0;    // of the slot each pop names, in order
    std::vector<int> pop_slots;  // -1: the address names no live slot here
  };

  Registrations(int nprocs, int pid) : p_(nprocs), pid_(pid) {}

  void push(const void* addr, std::int64_t size, const CallSite& site);
  void pop(const void* addr, const CallSite& site);
  const std::vector<Call>& calls() const { return calls_; }

  // The live slot a local address names now (the most recent one holding it), or -1.
  int find(const void* addr) const;
  // Whether the address was pushed in this superstep (not usable before the sync).
  bool pushed_now(const void* addr) const;
  const Entry& entry(int slot, int pid) const { return slots_.at(slot)[static_cast<std::size_t>(pid)]; }
  // The live slots' own push sites, oldest first (reg-leak at bsp_end).
  std::vector<CallSite> live_sites() const;

  Plan plan() const;
  // This superstep's pushes as this rank made them, for the gather.
  std::vector<Entry> own_pushes() const;
  // At the sync, once the ranks agree on the counts: the k-th push's entries are
  // gathered[pid * pushes + k]; pops whose index is in `skip` are not applied. Returns this
  // rank's own entries of the slots the pops removed.
  std::vector<Entry> apply(const Plan& plan, const std::vector<Entry>& gathered, const std::vector<bool>& skip);

 private:
  using Stacks = std::unordered_map<std::uint64_t, std::vector<int>>;
  int p_, pid_;
  int next_slot_ = 0;
  std::unordered_map<int, std::vector<Entry>> slots_;  // live slots: every rank's entry
  std::unordered_map<int, CallSite> sites_;            // live slots: this rank's push
  Stacks own_;                                         // this rank's address -> its live slots, oldest first
  std::vector<Call> calls_;                            // this superstep's, in program order
};

}  // namespace bspcheck::mpi
