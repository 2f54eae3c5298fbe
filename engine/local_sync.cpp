// local_sync.cpp: see local_sync.hpp.
#include "engine/local_sync.hpp"

#include "engine/world.hpp"

namespace bspcheck::rt {

LocalSync::LocalSync(World& world) : world_(world), state_(static_cast<std::size_t>(world.nprocs())) {}

bool LocalSync::any_waiting() const {
  for (const ProcessState& s : state_)
    if (s.wait) return true;
  return false;
}

void LocalSync::wait_until(Wait wait) {
  if (wait.ready()) return;
  const auto me = static_cast<std::size_t>(world_.pid());
  state_[me].wait = std::make_unique<Wait>(std::move(wait));
  // Woken by notify() once the predicate held; it is checked again because whatever a woken
  // process waits for is its own state, which only it and the senders change.
  while (!state_[me].wait->ready()) world_.block_local();
  state_[me].wait.reset();
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
