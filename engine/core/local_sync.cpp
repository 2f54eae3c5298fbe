// local_sync.cpp: see local_sync.hpp.
#include "engine/core/local_sync.hpp"

#include "engine/core/world.hpp"

namespace bspcheck::rt {

LocalSync::LocalSync(World& world) : world_(world), state_(static_cast<std::size_t>(world.nprocs())) {}

bool LocalSync::any_waiting() const {
  for (const ProcessState& s : state_)
    if (s.wait) return true;
  return false;
}

bool LocalSync::wait_until(Wait wait) {
  if (wait.ready()) return false;
  const int pid = world_.pid();
  const auto me = static_cast<std::size_t>(pid);
  state_[me].wait = std::make_unique<Wait>(std::move(wait));
  state_[me].released = false;
  // Woken by notify() once the predicate held; it is checked again because whatever a woken
  // process waits for is its own state, which only it and the senders change. Before the last
  // process that could run blocks, a waiting process that can go on with less is released (the
  // running one included), so that a wait that only its own partial progress can satisfy is
  // no deadlock.
  while (!state_[me].wait->ready() && !state_[me].released) {
    if (nothing_else_runnable(pid) && release_partial(pid) && state_[me].released) break;
    world_.block_local();
  }
  const bool partial = state_[me].released && !state_[me].wait->ready();
  state_[me].wait.reset();
  state_[me].released = false;
  return partial;
}

bool LocalSync::nothing_else_runnable(int pid) const { return !world_.runnable_besides(pid); }

bool LocalSync::release_partial(int self) {
  for (int q = 0; q < world_.nprocs(); ++q) {
    ProcessState& s = state_[static_cast<std::size_t>(q)];
    if (!s.wait || s.released || !s.wait->partial || !s.wait->partial()) continue;
    s.released = true;
    if (q != self) world_.wake_local(q);
    return true;
  }
  return false;
}

void LocalSync::notify(int pid) {
  ProcessState& s = state_[static_cast<std::size_t>(pid)];
  if (s.wait && pid != world_.pid() && s.wait->ready()) world_.wake_local(pid);
}

void LocalSync::notify_all() {
  for (int pid = 0; pid < world_.nprocs(); ++pid) notify(pid);
}

void LocalSync::report(Rule rule, std::string message, std::vector<int> processes) {
  const Process& me = world_.self();
  Finding f;
  f.rule = rule_id(rule);
  f.message = std::move(message);
  f.processes = processes.empty() ? std::vector<int>{me.pid} : std::move(processes);
  f.superstep = static_cast<int>(superstep(me.pid));
  f.locations.push_back(world_.diagnostics().location(me.site, me.pid, me.call));
  world_.diagnostics().report(std::move(f));
}

void LocalSync::report_deadlock() {
  Finding f;
  const ProcessState* stuck = nullptr;
  for (const ProcessState& s : state_)
    if (s.wait && (!stuck || s.wait->priority > stuck->wait->priority)) stuck = &s;
  f.rule = rule_id(stuck->wait->rule_if_stuck);
  f.superstep = static_cast<int>(stuck->superstep);
  std::string msg = "no process can go on:";
  for (const Process& pr : world_.processes()) {
    const ProcessState& s = state_[static_cast<std::size_t>(pr.pid)];
    msg += "\n  process " + std::to_string(pr.pid) + " (superstep " + std::to_string(s.superstep) + "): ";
    if (s.wait) msg += s.wait->describe();
    else if (pr.state == ProcState::in_sync) msg += "waits in bsp_sync";
    else if (pr.state == ProcState::in_end) msg += "reached bsp_end";
    else if (pr.state == ProcState::finished) msg += "left the SPMD part";
    else msg += std::string("last called ") + pr.call;
    f.processes.push_back(pr.pid);
    f.locations.push_back(world_.diagnostics().location(pr.site, pr.pid, pr.call));
  }
  f.message = std::move(msg);
  world_.diagnostics().report(std::move(f));
}

}  // namespace bspcheck::rt
