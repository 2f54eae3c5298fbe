// world_drma.cpp: World's DRMA calls (BSPlib 3.2, 3.3): each put or get is checked and resolved
// through the registration table here; buffered ones wait in engine/core/drma_buffer.hpp, unbuffered
// ones in engine/core/hp_operations.hpp, performed at a switch point or the barrier as the scheduler
// draws, with the checker and poisoning wired around them.
#include "engine/core/world.hpp"

#include "replay/trace_format.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace bspcheck::rt {

bool World::check_transfer_args(int pid, int offset, int nbytes, const void* local, const char* local_name) {
  Process& me = self();
  if (pid < 0 || pid >= p_) {
    report(Rule::bad_pid, "process " + std::to_string(me.pid) + " names process " + std::to_string(pid) +
                              ", outside 0.." + std::to_string(p_ - 1));
    return false;
  }
  if (offset < 0 || nbytes < 0) {
    report(Rule::api_misuse,
           "process " + std::to_string(me.pid) + " passes a negative " +
               (offset < 0 ? "offset (" + std::to_string(offset) + ")" : "size (" + std::to_string(nbytes) + ")"));
    return false;
  }
  if (!local && nbytes > 0) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " passes a NULL " + local_name +
                                 " with nbytes = " + std::to_string(nbytes));
    return false;
  }
  return true;
}

void* World::resolve(int target, const void* local_addr, long offset, long nbytes, bool is_put, long* extent) {
  Process& me = self();
  const int slot = regs_.find(me.pid, local_addr);
  const char* what = is_put ? "destination" : "source";
  if (slot < 0) {
    for (const PushRequest& r : me.pushes)
      if (r.addr == local_addr && local_addr) {
        report(Rule::reg_not_active,
               std::string("the ") + what + " of process " + std::to_string(me.pid) + "'s " + me.call +
                   " was registered in this superstep; it becomes usable after the next bsp_sync");
        return nullptr;
      }
    std::ostringstream s;
    s << "the " << what << " address " << local_addr << " of process " << me.pid << "'s " << me.call
      << " is not registered";
    report(Rule::reg_unregistered, s.str());
    return nullptr;
  }
  const RegistrationTable::Entry& e = regs_.entry(slot, target);
  if (!e.addr) {
    report(Rule::reg_unregistered,
           "process " + std::to_string(me.pid) + "'s " + me.call + " reaches process " + std::to_string(target) +
               ", which registered NULL in that slot",
           {me.pid, target});
    return nullptr;
  }
  *extent = e.size;
  if (offset + nbytes > e.size) {
    std::ostringstream s;
    s << "process " << me.pid << (is_put ? " writes" : " reads") << " bytes " << offset << ".." << offset + nbytes
      << " of a " << e.size << "-byte area on process " << target;
    report(is_put ? Rule::bounds_put : Rule::bounds_get, s.str(), {me.pid, target});
    return nullptr;
  }
  return const_cast<void*>(e.addr);
}

void World::put(int pid, const void* src, void* dst, int offset, int nbytes, bool unbuffered) {
  traced_call(unbuffered ? trace::Call::hpput : trace::Call::put, pid, nbytes, src,
              src && nbytes > 0 && pid >= 0 && pid < p_ ? static_cast<std::size_t>(nbytes) : 0);
  if (check_transfer_args(pid, offset, nbytes, src, "source") && nbytes > 0) {
    long extent = 0;
    if (void* base = resolve(pid, dst, offset, nbytes, true, &extent)) {
      void* target = static_cast<char*>(base) + offset;
      comm_.transfer(running_, pid, static_cast<std::size_t>(nbytes));
      if (unbuffered) {
        record_hp(src, target, nbytes, running_, pid);
        if (poisoning_) note_hp_race_probe(pid, dst, offset, nbytes);
      } else {
        // Buffered on source: the bytes are copied now; they land at the barrier.
        const Process& me = self();
        drma_.put(canonical(pid, target), src, static_cast<std::uint32_t>(nbytes), running_, pid, me.site, me.call);
      }
    }
  }
}

void World::get(int pid, const void* src, int offset, void* dst, int nbytes, bool unbuffered) {
  traced_call(unbuffered ? trace::Call::hpget : trace::Call::get, pid, nbytes);
  if (check_transfer_args(pid, offset, nbytes, dst, "destination") && nbytes > 0) {
    long extent = 0;
    if (void* base = resolve(pid, src, offset, nbytes, false, &extent)) {
      const void* source = static_cast<const char*>(base) + offset;
      comm_.transfer(pid, running_, static_cast<std::size_t>(nbytes));
      if (unbuffered) record_hp(source, dst, nbytes, pid, running_);
      else {
        drma_.get(canonical(pid, source), canonical(running_, dst), static_cast<std::uint32_t>(nbytes), running_, pid,
                  self().site);
        if (poisoning_)
          poison_.poison({reinterpret_cast<std::uintptr_t>(dst), reinterpret_cast<std::uintptr_t>(dst) + nbytes,
                          Rule::get_dst_early_read, running_, running_, superstep_, self().site, "bsp_get",
                          globals_ && globals_->is_private(dst) ? running_ : -1});
      }
    }
  }
}

void World::direct_get(int pid, const void* src, int offset, void* dst, int nbytes) {
  traced_call(trace::Call::direct_get, pid, nbytes);
  if (!check_transfer_args(pid, offset, nbytes, dst, "destination") || nbytes == 0) return;
  long extent = 0;
  void* base = resolve(pid, src, offset, nbytes, false, &extent);
  if (!base) return;
  const void* source = static_cast<const char*>(base) + offset;
  comm_.transfer(pid, running_, static_cast<std::size_t>(nbytes));
  // Through the canonical addresses, as an hp operation is performed: the source may be a private
  // global of process pid, the destination one of the caller's (flushed first, reloaded after).
  if (globals_) globals_->flush();
  hold_until_barrier(pid, source, static_cast<std::size_t>(nbytes));
  // A plain copy, as bsp_put's of its source: in a region poisoned for a pending operation
  // (reading an hpput's destination, writing an hpget's) it is the program's access, reported so.
  std::memmove(canonical(running_, dst), canonical(pid, source), static_cast<std::size_t>(nbytes));
  if (globals_) globals_->reload();
}

void World::maybe_fire_hp() {
  if (sched_->choose(ChoiceKind::hp_timing, 2) == 0) {
    if (globals_) globals_->flush();
    fire_hp(sched_->choose(ChoiceKind::hp_timing, static_cast<std::uint32_t>(hp_.pending())), true);
    if (globals_) globals_->reload();
  }
}

void World::fire_hp(std::size_t pending_index, bool during_superstep) {
  checker::HpRecord& op = hp_.take(pending_index);
  const bool poisoned = poisoning_ && during_superstep && !(globals_ && globals_->in_slot(op.dst));
  // The operation's source may be another one's destination, poisoned: reading it is the runtime's
  // copy, not the program's read (the race of the two is hp-src-modified at the barrier,
  // checker/hp_source_races.hpp).
  const auto src = reinterpret_cast<std::uintptr_t>(op.src);
  const bool src_poisoned = poisoning_ && during_superstep && poison_.poisoned_within(src, src + op.nbytes);
  if (poisoned) Poisoning::unpoison(op.dst, op.nbytes);
  if (src_poisoned) Poisoning::unpoison(op.src, op.nbytes);
  HpOperations::fire(op, checker_.get(), superstep_, during_superstep);
  if (src_poisoned) poison_.repoison_overlapping(src, src + op.nbytes);
  if (poisoned) Poisoning::repoison(op.dst, op.nbytes);
}

void World::record_hp(const void* src, void* dst, int nbytes, int src_owner, int dst_owner) {
  const Process& me = self();
  // The operation may fire while another process runs: it keeps the canonical addresses.
  checker::HpRecord r{canonical(src_owner, src),
                      canonical(dst_owner, dst),
                      static_cast<std::uint32_t>(nbytes),
                      me.pid,
                      src_owner,
                      dst_owner,
                      me.site,
                      me.call,
                      0,
                      0};
  if (checker_) {
    if (globals_) globals_->flush();  // src and dst may be the running process's own globals
    r.src_at_call = checker_->stamps().take(r.src, r.nbytes);
    r.dst_at_call = r.dst == r.src ? r.src_at_call : checker_->stamps().take(r.dst, r.nbytes);  // the same bytes
  }
  hp_.add(r);
  // A private global's live address belongs to whichever process runs: its region is poisoned
  // only while its owner runs (a canonical address different from dst says it is private).
  if (poisoning_)
    poison_.poison({reinterpret_cast<std::uintptr_t>(dst), reinterpret_cast<std::uintptr_t>(dst) + r.nbytes,
                    Rule::hp_dst_read, me.pid, dst_owner, superstep_, me.site, me.call, r.dst != dst ? dst_owner : -1});
}

std::string World::timeout_hazard() const {
  const Process& me = procs_[static_cast<std::size_t>(running_)];
  if (me.state != ProcState::runnable) return "";
  std::string pending, idle;
  for (const checker::HpRecord& op : hp_.log()) {
    if (op.fired || op.dst_owner != me.pid || op.caller == me.pid) continue;
    pending += std::string(pending.empty() ? "" : ", ") + "process " + std::to_string(op.caller) + "'s " + op.call;
    if (op.site.file) pending += std::string(" (") + op.site.file + ":" + std::to_string(op.site.line) + ")";
  }
  for (const Process& pr : procs_)
    if (!made_call_this_superstep(pr))  // (the running process has, by definition)
      idle += (idle.empty() ? "" : ", ") + std::to_string(pr.pid);
  if (pending.empty() && idle.empty()) return "";
  std::string m = "; process " + std::to_string(me.pid) +
                  " may be waiting, without BSPlib calls, for memory another process's communication of this "
                  "superstep writes (a flag polled in a loop):";
  if (!pending.empty()) m += " " + pending + " into its memory had not landed;";
  if (!idle.empty()) m += " process(es) " + idle + " had made no BSPlib call in this superstep;";
  return m +
         " another process runs only when the running one makes a BSPlib call, and an unbuffered operation need "
         "not land before the bsp_sync (reading its destination before then is hp-dst-read): read it after the "
         "bsp_sync";
}

}  // namespace bspcheck::rt
