// world_report.cpp: how the World words and locates its findings: the running process's, an
// event's (a crash, a throw: the program's line and the process's last call), a deadlock, writes
// to shared globals, a thread or forked child calling BSPlib, and an access to poisoned memory
// (AddressSanitizer's callbacks and the watchpoints). The superstep core (world.cpp) calls them.
#include <cstdio>
#include <string>
#include <vector>

#include "checker/finding_text.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "engine/core/world.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/memory_checks/asan_recovery.hpp"

namespace bspcheck::rt {

void World::report_shared_writes() {
  const Process& me = self();
  watch_->collect(me.pid, me.site, me.call);
  for (const SharedWriteWatch::Conflict& c : watch_->take_conflicts()) {
    const bool executable = c.object == "the executable";
    Finding f;
    f.rule = rule_id(Rule::global_shared);
    f.message =
        "processes " + std::to_string(c.first) + " and " + std::to_string(c.second) + " both wrote `" + c.variable +
        "` in superstep " + std::to_string(superstep_) + " (each before the BSPlib call named below); " +
        (executable ? "the executable's globals are shared in this run (--globals=shared): with separate "
                      "processes each would have its own copy, and with threads (MulticoreBSP) this is a data race"
                    : "it belongs to " + c.object +
                          ", a shared library whose data bsp-check cannot make private "
                          "per process: with separate processes each would have its own copy");
    f.processes = {c.first, c.second};
    f.superstep = superstep_;
    f.locations = {diag_.location(c.first_site, c.first, c.first_call),
                   diag_.location(c.second_site, c.second, c.second_call)};
    diag_.report(std::move(f));
  }
}

void World::deadlock_report() {
  if (local_ && local_->any_waiting()) {  // a counting or lazy sync cannot go on: it says why
    local_->report_deadlock();
    stopping_ = true;
    return;
  }
  std::vector<int> in_sync, in_end, gone;
  for (const Process& pr : procs_) {
    if (pr.state == ProcState::in_sync) in_sync.push_back(pr.pid);
    else if (pr.state == ProcState::in_end) in_end.push_back(pr.pid);
    else if (pr.state == ProcState::finished) gone.push_back(pr.pid);
  }
  std::string msg;
  if (!in_sync.empty())
    msg += "process" + std::string(in_sync.size() > 1 ? "es " : " ") + describe_pids(in_sync) +
           (in_sync.size() > 1 ? " wait" : " waits") + " in bsp_sync";
  if (!in_end.empty())
    msg += std::string(msg.empty() ? "" : " while ") + "process" + (in_end.size() > 1 ? "es " : " ") +
           describe_pids(in_end) + " reached bsp_end";
  if (!gone.empty())
    msg += std::string(msg.empty() ? "" : " and ") + "process" + (gone.size() > 1 ? "es " : " ") + describe_pids(gone) +
           " left the SPMD part";
  Finding f;
  f.rule = rule_id(Rule::superstep_mismatch);
  f.message = msg + ": the processes disagree on the number of supersteps";
  f.superstep = superstep_;
  for (const Process& pr : procs_) {
    f.processes.push_back(pr.pid);
    f.locations.push_back(diag_.location(pr.site, pr.pid, pr.call));
  }
  diag_.report(std::move(f));
  stopping_ = true;
}

Finding World::running_finding(Rule rule, std::string message) const {
  Finding f;
  f.rule = rule_id(rule);
  f.message = std::move(message);
  f.processes = {running_};
  f.superstep = superstep_;
  return f;
}

void World::report(Rule rule, std::string message, std::vector<int> processes, std::uint32_t stack, const char* what) {
  const Process& me = self();
  Finding f = running_finding(rule, std::move(message));
  if (!processes.empty()) f.processes = std::move(processes);
  Site site = me.site;
  if (stack) site.stack = stack;
  f.locations.push_back(diag_.location(site, me.pid, stack && what ? what : me.call));
  diag_.report(std::move(f));
}

void World::report_stopped(const SpmdEnd& end) {
  if (end.rule == Rule::out_of_memory) report(end.rule, end.crash, {}, end.stack, location_event::allocation);
  else report_event(end.rule, end.crash, end.stack, location_event::thrown);  // the line that threw
}

bool World::report_event(Rule rule, std::string message, std::uint32_t stack, const char* what) {
  if (stack == 0 || symbolised_stack(stack).user < 0) {
    report(rule, std::move(message));
    return false;
  }
  const Process& me = self();
  Finding f = running_finding(rule, std::move(message));
  Site at = me.site;
  at.stack = stack;
  f.locations = {diag_.location(at, me.pid, what), diag_.location(me.site, me.pid, me.call)};
  diag_.report(std::move(f));
  return true;
}

void World::report_foreign_thread_call() {
  const ForeignThreadCall c = take_foreign_thread_call();
  const bool known = c.creator >= 0 && c.creator < p_;
  const int owner = known ? c.creator : running_;
  const std::string stops = "the run stops at process " + std::to_string(running_) + "'s next " + self().call;
  Finding f = running_finding(
      Rule::foreign_thread,
      c.forked_child
          ? (known ? "a child that process " + std::to_string(c.creator) + " forked" : std::string("a forked child")) +
                " called " + c.call +
                ": a forked child is a separate OS process, not a BSP process, and no "
                "BSPlib implementation answers it (the child ended at the call; " +
                stops + ")"
          : (known ? "a thread that process " + std::to_string(c.creator) + " created"
                   : std::string("a thread of the program")) +
                " called " + c.call +
                ": a BSP process is one sequential program, and only its own thread may call "
                "BSPlib (the call had no effect; " +
                stops + ")");
  f.processes = {owner};
  f.locations = {diag_.location(c.site, owner, c.call)};
  diag_.report(std::move(f));
  stop();
}

void World::report_poisoned_access(const PoisonedRegion* r, bool is_write, Caught how) {
  // Called from AddressSanitizer's report or death callback, or from a watchpoint's SIGTRAP
  // handler right after the access (runtime/memory_checks/watchpoints.hpp).
  if (how == Caught::asan_halt_after_warning) {
    // The warning is reported; ASan stops the program all the same.
    std::fprintf(real_out[1],
                 "bsp-check: note: AddressSanitizer stops the program at the warning above: it goes on when built "
                 "with -fsanitize-recover=address (bspcc adds it) and run with ASAN_OPTIONS=%s (bsp-check run sets "
                 "them)\n",
                 kAsanRecoverOptions);
    std::fflush(real_out[1]);
    if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
    return;
  }
  const bool trapped = how == Caught::watchpoint;
  const Process& me = self();
  const PoisonedAccess access = Poisoning::describe_access(r, me.pid, is_write, me.call);
  Finding f = running_finding(access.rule, access.message);
  // The access itself: the sanitizer's callbacks run on the stack of the instruction it caught,
  // and the trap's handler on the stack it interrupted, so the program's line is in this stack
  // (else the process's last call, with the stack).
  Site at = me.site;
  at.stack = trapped ? capture_interrupted_stack(true) : capture_current_stack();
  f.locations = {
      diag_.location(at, me.pid, at.stack ? (is_write ? location_event::write : location_event::read) : me.call)};
  if (r) {
    if (r->caller >= 0 && r->caller != me.pid) f.processes.push_back(r->caller);
    f.locations.insert(f.locations.begin(), diag_.location(r->site, r->caller, r->call));
  }
  // Program mode prints findings as they are reported; in-process runs have no one else to tell.
  if (diag_.report(f) && !diag_.printing()) {
    std::fputs(checker::render_finding(f, "").c_str(), real_out[1]);
    std::fflush(real_out[1]);
  }
  // A warning the program can go on from (the access is done, or ASan resumes it after its
  // report): the read is defined (get-dst-early-read sees the old contents), so the run continues,
  // and the region is lifted so that the next access to it is not reported again.
  if (how != Caught::asan_death && r && Poisoning::may_go_on(*r)) {
    const std::uintptr_t lo = r->lo;
    poison_.release_within(lo, lo + 1);
    return;
  }
  if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
}

}  // namespace bspcheck::rt
