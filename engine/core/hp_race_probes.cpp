// hp_race_probes.cpp: the race an AddressSanitizer build cannot see in the interleaving that ran
// (docs/checks.md, "ASan-only rules"): the target of a bsp_hpput touches the destination in the
// same superstep before the call is made. The access and the hpput are concurrent all the same
// (an unbuffered operation may land at any moment of its superstep), but a destination is poisoned
// only from its call on. So the hpput notes its destination when the target has already run in
// the superstep (a probe), and bsp-check run makes the run once more, the same seed, with that
// range poisoned from the superstep's start (poison_hp_race_probes), where the earlier access is
// caught and named hp-dst-read or hp-dst-conflict with both lines. Poisoning every registered area
// from every superstep's start instead would cost an AddressSanitizer report per first touch of
// a granule (about 5 ms each, docs/checks.md).
#include <algorithm>
#include <cstring>

#include "engine/core/world.hpp"

namespace bspcheck::rt {

namespace {

// A run notes at most this many destinations: each is a second run of the seed for the session
// whenever it is new to it.
constexpr std::size_t kMaxProbesPerRun = 16;

}  // namespace

// A process that has run in this superstep made a BSPlib call since it left the barrier (a
// switch happens only at a call), or is still running; one that has not still shows the bsp_sync
// (or bsp_begin) it was released from, and waits to be chosen.
bool World::made_call_this_superstep(const Process& pr) const {
  return pr.state != ProcState::runnable || pr.pid == running_ ||
         (std::strcmp(pr.call, "bsp_sync") != 0 && std::strcmp(pr.call, "bsp_begin") != 0);
}

void World::note_hp_race_probe(int target, const void* dst_reg, long offset, long nbytes) {
  const Process& me = self();
  // The caller's own destination is sequential in its program; a counting or lazy sync's
  // processes are in supersteps of their own.
  if (target == me.pid || local_ || probes_found_.size() >= kMaxProbesPerRun) return;
  if (!made_call_this_superstep(procs_[static_cast<std::size_t>(target)])) return;
  const int slot = regs_.find(me.pid, dst_reg);
  if (slot < 0) return;
  HpRaceProbe probe{superstep_, target, slot, offset, nbytes, me.pid, 0, ""};
  // The first superstep in which a destination was written so is noted: a program that does the
  // same in every superstep does it in the first.
  const auto same_range = [&](const HpRaceProbe& q) {
    return q.target == probe.target && q.slot == probe.slot && q.offset == probe.offset && q.nbytes == probe.nbytes &&
           q.caller == probe.caller;
  };
  if (std::any_of(probes_found_.begin(), probes_found_.end(), same_range)) return;
  // The call site as a finding names it (symbolised now, when the program has no bsp.h sites).
  const Location at = diag_.location(me.site, me.pid, me.call);
  probe.file = at.file;
  probe.line = at.line;
  probes_found_.push_back(std::move(probe));
}

// At the start of a superstep: the probes asked for in it, poisoned as the hpput would poison its
// destination, but from now on. A private global's bytes are poisoned only while its owner runs.
void World::poison_hp_race_probes() {
  if (!poisoning_ || local_) return;
  for (const HpRaceProbe& probe : options_.hp_race_probes) {
    if (probe.superstep != superstep_ || probe.target < 0 || probe.target >= p_ || probe.caller < 0 ||
        probe.caller >= p_ || !regs_.is_live(probe.slot))
      continue;
    const RegistrationTable::Entry& e = regs_.entry(probe.slot, probe.target);
    if (!e.addr || probe.offset + probe.nbytes > e.size) continue;
    char* dst = static_cast<char*>(const_cast<void*>(e.addr)) + probe.offset;
    const bool private_copy = canonical(probe.target, dst) != dst;
    PoisonedRegion region{reinterpret_cast<std::uintptr_t>(dst),
                          reinterpret_cast<std::uintptr_t>(dst) + static_cast<std::uintptr_t>(probe.nbytes),
                          Rule::hp_dst_read,
                          probe.caller,
                          probe.target,
                          superstep_,
                          Site{probe.file.empty() ? nullptr : probe.file.c_str(), probe.line},
                          "bsp_hpput",
                          private_copy ? probe.target : -1};
    region.before_call = true;
    poison_.poison(region);
  }
}

}  // namespace bspcheck::rt
