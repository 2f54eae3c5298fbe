#include "engine/core/registration_sync.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

namespace bspcheck::rt {

std::string describe_pids(const std::vector<int>& pids) {
  std::ostringstream s;
  for (std::size_t i = 0; i < pids.size(); ++i) {
    if (i) s << (i + 1 == pids.size() ? " and " : ", ");
    s << pids[i];
  }
  return s.str();
}

bool apply_registration_calls(std::vector<Process>& procs, RegistrationTable& regs, checker::Diagnostics& diag,
                              checker::Checker* rules, int superstep) {
  const int p = static_cast<int>(procs.size());
  auto counts_agree = [&](auto member, const char* what) {
    const std::size_t n0 = (procs[0].*member).size();
    bool agree = true;
    for (const Process& pr : procs) agree = agree && (pr.*member).size() == n0;
    if (agree) return std::optional<std::size_t>(n0);
    Finding f;
    f.rule = std::string(what) == "bsp_push_reg" ? rule_id(Rule::reg_count_mismatch) : rule_id(Rule::reg_pop_mismatch);
    std::ostringstream s;
    s << "the processes called " << what << " different numbers of times in this superstep (";
    std::size_t fewest = n0;
    for (const Process& pr : procs) fewest = std::min(fewest, (pr.*member).size());
    constexpr std::size_t kMaxLocations = 16;
    for (const Process& pr : procs) {
      const auto& calls = pr.*member;
      s << (pr.pid ? ", " : "") << "process " << pr.pid << ": " << calls.size();
      f.processes.push_back(pr.pid);
      if (f.locations.size() >= kMaxLocations) continue;
      // The calls without partners on the other processes, or where a process with fewer waits.
      if (calls.size() > fewest)
        for (std::size_t k = fewest; k < calls.size() && f.locations.size() < kMaxLocations; ++k)
          f.locations.push_back(diag.location(calls[k].site, pr.pid, what));
      else f.locations.push_back(diag.location(pr.site, pr.pid, pr.call));
    }
    s << ")";
    f.message = s.str();
    f.superstep = superstep;
    diag.report(std::move(f));
    return std::optional<std::size_t>{};
  };
  const std::optional<std::size_t> npops = counts_agree(&Process::pops, "bsp_pop_reg");
  if (!npops) return false;
  const std::optional<std::size_t> npushes = counts_agree(&Process::pushes, "bsp_push_reg");
  if (!npushes) return false;

  if (rules) {
    // Where a process pops an address it pushed earlier in this superstep, program order (here)
    // and all-pops-first (other BSPlibs, and bsp-check before) remove different slots: a
    // portability warning.
    std::vector<checker::RegOrderConflict> conflicts;
    for (const Process& pr : procs)
      for (const PopRequest& pop : pr.pops) {
        if (!pop.addr) continue;
        for (std::size_t k = 0; k < pop.pushes_before; ++k)
          if (pr.pushes[k].addr == pop.addr) {
            conflicts.push_back({pr.pid, pr.pushes[k].site, pop.site});
            break;
          }
      }
    if (!conflicts.empty()) rules->registration_order(conflicts, superstep);
  }

  // A de-registration names, on every process, the most recent live slot holding that process's
  // address; all must name the same slot.
  // Whether a process has NULL registered in some live slot (what its pop of NULL names).
  auto registered_null = [&](int pid) {
    for (int id : regs.live_slot_ids())
      if (regs.entry(id, pid).addr == nullptr) return true;
    return false;
  };
  auto apply_pop = [&](std::size_t k) {
    int slot = -1;
    bool mismatch = false;
    std::vector<int> unknown;
    for (const Process& pr : procs) {
      const void* a = pr.pops[k].addr;
      if (!a) {  // a process that registered NULL pops NULL; one that never did names nothing
        if (!registered_null(pr.pid)) unknown.push_back(pr.pid);
        continue;
      }
      int s = regs.find(pr.pid, a);
      if (s < 0) unknown.push_back(pr.pid);
      else if (slot < 0) slot = s;
      else if (s != slot) mismatch = true;
    }
    if (unknown.empty() && slot < 0 && !mismatch) {
      // Every process pops NULL: the most recent slot in which every process registered NULL.
      const std::vector<int> live = regs.live_slot_ids();
      for (auto it = live.rbegin(); it != live.rend() && slot < 0; ++it) {
        bool all_null = true;
        for (int pid = 0; pid < p && all_null; ++pid) all_null = regs.entry(*it, pid).addr == nullptr;
        if (all_null) slot = *it;
      }
      if (slot < 0) {
        for (const Process& pr : procs) unknown.push_back(pr.pid);
      }
    }
    if (!unknown.empty()) {
      Finding f;
      f.rule = rule_id(Rule::reg_pop_unknown);
      f.message = "process" + std::string(unknown.size() > 1 ? "es " : " ") + describe_pids(unknown) +
                  (unknown.size() > 1 ? " pop" : " pops") + " an address that is not registered";
      f.superstep = superstep;
      f.processes = unknown;
      for (int pid : unknown) f.locations.push_back(diag.location(procs[pid].pops[k].site, pid, "bsp_pop_reg"));
      diag.report(std::move(f));
      return;
    }
    if (!mismatch && slot >= 0)
      for (const Process& pr : procs)
        if (!pr.pops[k].addr && regs.entry(slot, pr.pid).addr) mismatch = true;
    if (mismatch || slot < 0) {
      Finding f;
      f.rule = rule_id(Rule::reg_pop_mismatch);
      f.message = "the processes' bsp_pop_reg calls name different registration slots";
      f.superstep = superstep;
      for (const Process& pr : procs) {
        f.processes.push_back(pr.pid);
        f.locations.push_back(diag.location(pr.pops[k].site, pr.pid, "bsp_pop_reg"));
      }
      diag.report(std::move(f));
      return;
    }
    regs.remove(slot);
  };
  // The k-th push of every process forms a new slot, the newest.
  auto apply_push = [&](std::size_t k) {
    std::vector<RegistrationTable::Entry> entries(static_cast<std::size_t>(p));
    for (const Process& pr : procs) {
      const PushRequest& r = pr.pushes[k];
      entries[pr.pid] = {r.addr, r.size, r.site};
    }
    if (rules) {
      std::vector<const void*> addrs;
      std::vector<Site> sites;
      for (const auto& e : entries) {
        addrs.push_back(e.size > 0 ? e.addr : nullptr);  // a 0-byte dummy pairs with anything, as NULL does
        sites.push_back(e.site);
      }
      rules->slot_created(addrs, sites, superstep);
    }
    regs.add(std::move(entries));
  };
  // In program order (process 0's interleaving of its pushes and pops; the order only matters
  // where a process pops an address it pushed before in this superstep, which is reported
  // above): a pop of an area pushed earlier in the superstep removes that new registration, a
  // push after a pop adds a new one.
  std::size_t pushed = 0;
  for (std::size_t k = 0; k < *npops; ++k) {
    for (; pushed < procs[0].pops[k].pushes_before; ++pushed) apply_push(pushed);
    apply_pop(k);
  }
  for (; pushed < *npushes; ++pushed) apply_push(pushed);
  for (Process& pr : procs) {
    pr.pushes.clear();
    pr.pops.clear();
  }
  return true;
}

}  // namespace bspcheck::rt
