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

namespace {

// One barrier's registration calls, applied to the table: a method per step, in the order
// apply() takes them.
class RegistrationSync {
 public:
  RegistrationSync(ProcessTable& procs, RegistrationTable& regs, checker::Diagnostics& diag, checker::Checker* rules,
                   int superstep)
      : procs_(procs),
        regs_(regs),
        diag_(diag),
        rules_(rules),
        superstep_(superstep),
        p_(static_cast<int>(procs.size())) {}

  bool apply() {
    const std::optional<std::size_t> npops = counts_agree(&Process::pops, "bsp_pop_reg");
    if (!npops) return false;
    const std::optional<std::size_t> npushes = counts_agree(&Process::pushes, "bsp_push_reg");
    if (!npushes) return false;
    if (rules_) report_order_conflicts();
    // In program order (process 0's interleaving of its pushes and pops; the order only matters
    // where a process pops an address it pushed before in this superstep, which is reported
    // above): a pop of an area pushed earlier in the superstep removes that new registration, a
    // push after a pop adds a new one.
    std::size_t pushed = 0;
    for (std::size_t k = 0; k < *npops; ++k) {
      for (; pushed < procs_[0].pops[k].pushes_before; ++pushed) apply_push(pushed);
      apply_pop(k);
    }
    for (; pushed < *npushes; ++pushed) apply_push(pushed);
    for (Process& pr : procs_) {
      pr.pushes.clear();
      pr.pops.clear();
    }
    return true;
  }

 private:
  // The number of calls of one kind every process made, or nothing after reporting that they
  // differ (reg-count-mismatch for pushes, reg-pop-mismatch for pops).
  template <typename Calls>
  std::optional<std::size_t> counts_agree(Calls Process::*member, const char* what) {
    const std::size_t n0 = (procs_[0].*member).size();
    bool agree = true;
    for (const Process& pr : procs_) agree = agree && (pr.*member).size() == n0;
    if (agree) return n0;
    Finding f;
    f.rule = std::string(what) == "bsp_push_reg" ? rule_id(Rule::reg_count_mismatch) : rule_id(Rule::reg_pop_mismatch);
    std::ostringstream s;
    s << "the processes called " << what << " different numbers of times in this superstep (";
    std::size_t fewest = n0;
    for (const Process& pr : procs_) fewest = std::min(fewest, (pr.*member).size());
    constexpr std::size_t kMaxLocations = 16;
    for (const Process& pr : procs_) {
      const auto& calls = pr.*member;
      s << (pr.pid ? ", " : "") << "process " << pr.pid << ": " << calls.size();
      f.processes.push_back(pr.pid);
      if (f.locations.size() >= kMaxLocations) continue;
      // The calls without partners on the other processes, or where a process with fewer waits.
      if (calls.size() > fewest)
        for (std::size_t k = fewest; k < calls.size() && f.locations.size() < kMaxLocations; ++k)
          f.locations.push_back(diag_.location(calls[k].site, pr.pid, what));
      else f.locations.push_back(diag_.location(pr.site, pr.pid, pr.call));
    }
    s << ")";
    f.message = s.str();
    f.superstep = superstep_;
    diag_.report(std::move(f));
    return std::nullopt;
  }

  // Where a process pops an address it pushed earlier in this superstep, program order (here)
  // and all-pops-first (other BSPlibs, and bsp-check before) remove different slots: a
  // portability warning.
  void report_order_conflicts() {
    std::vector<checker::RegOrderConflict> conflicts;
    for (const Process& pr : procs_)
      for (const PopRequest& pop : pr.pops) {
        if (!pop.addr) continue;
        for (std::size_t k = 0; k < pop.pushes_before; ++k)
          if (pr.pushes[k].addr == pop.addr) {
            conflicts.push_back({pr.pid, pr.pushes[k].site, pop.site});
            break;
          }
      }
    if (!conflicts.empty()) rules_->registration_order(conflicts, superstep_);
  }

  // Whether a process has NULL registered in some live slot (what its pop of NULL names).
  bool registered_null(int pid) const {
    for (int id : regs_.live_slot_ids())
      if (regs_.entry(id, pid).addr == nullptr) return true;
    return false;
  }

  // The most recent slot in which every process registered NULL, or -1.
  int all_null_slot() const {
    const std::vector<int> live = regs_.live_slot_ids();
    for (auto it = live.rbegin(); it != live.rend(); ++it) {
      bool all_null = true;
      for (int pid = 0; pid < p_ && all_null; ++pid) all_null = regs_.entry(*it, pid).addr == nullptr;
      if (all_null) return *it;
    }
    return -1;
  }

  // A de-registration names, on every process, the most recent live slot holding that process's
  // address; all must name the same slot.
  void apply_pop(std::size_t k) {
    int slot = -1;
    bool mismatch = false;
    std::vector<int> unknown;
    for (const Process& pr : procs_) {
      const void* a = pr.pops[k].addr;
      if (!a) {  // a process that registered NULL pops NULL; one that never did names nothing
        if (!registered_null(pr.pid)) unknown.push_back(pr.pid);
        continue;
      }
      int s = regs_.find(pr.pid, a);
      if (s < 0) unknown.push_back(pr.pid);
      else if (slot < 0) slot = s;
      else if (s != slot) mismatch = true;
    }
    if (unknown.empty() && slot < 0 && !mismatch) {  // every process pops NULL
      slot = all_null_slot();
      if (slot < 0)
        for (const Process& pr : procs_) unknown.push_back(pr.pid);
    }
    if (!unknown.empty()) return report_unknown_pop(k, unknown);
    if (!mismatch && slot >= 0)
      for (const Process& pr : procs_)
        if (!pr.pops[k].addr && regs_.entry(slot, pr.pid).addr) mismatch = true;
    if (mismatch || slot < 0) return report_pop_mismatch(k);
    regs_.remove(slot);
  }

  void report_unknown_pop(std::size_t k, const std::vector<int>& unknown) {
    Finding f;
    f.rule = rule_id(Rule::reg_pop_unknown);
    f.message = "process" + std::string(unknown.size() > 1 ? "es " : " ") + describe_pids(unknown) +
                (unknown.size() > 1 ? " pop" : " pops") + " an address that is not registered";
    f.superstep = superstep_;
    f.processes = unknown;
    for (int pid : unknown) f.locations.push_back(diag_.location(procs_[pid].pops[k].site, pid, "bsp_pop_reg"));
    diag_.report(std::move(f));
  }

  void report_pop_mismatch(std::size_t k) {
    Finding f;
    f.rule = rule_id(Rule::reg_pop_mismatch);
    f.message = "the processes' bsp_pop_reg calls name different registration slots";
    f.superstep = superstep_;
    for (const Process& pr : procs_) {
      f.processes.push_back(pr.pid);
      f.locations.push_back(diag_.location(pr.pops[k].site, pr.pid, "bsp_pop_reg"));
    }
    diag_.report(std::move(f));
  }

  // The k-th push of every process forms a new slot, the newest.
  void apply_push(std::size_t k) {
    std::vector<RegistrationTable::Entry> entries(static_cast<std::size_t>(p_));
    for (const Process& pr : procs_) {
      const PushRequest& r = pr.pushes[k];
      entries[pr.pid] = {r.addr, r.size, r.site};
    }
    if (rules_) {
      std::vector<const void*> addrs;
      std::vector<Site> sites;
      for (const auto& e : entries) {
        addrs.push_back(e.size > 0 ? e.addr : nullptr);  // a 0-byte dummy pairs with anything, as NULL does
        sites.push_back(e.site);
      }
      rules_->slot_created(addrs, sites, superstep_);
    }
    regs_.add(std::move(entries));
  }

  ProcessTable& procs_;
  RegistrationTable& regs_;
  checker::Diagnostics& diag_;
  checker::Checker* rules_;
  const int superstep_;
  const int p_;
};

}  // namespace

bool apply_registration_calls(ProcessTable& procs, RegistrationTable& regs, checker::Diagnostics& diag,
                              checker::Checker* rules, int superstep) {
  return RegistrationSync(procs, regs, diag, rules, superstep).apply();
}

}  // namespace bspcheck::rt
