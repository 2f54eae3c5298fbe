// local_sync.hpp: processes that leave a superstep without a global barrier (cBSP's counting
// sync, BSPk's lazy barriers). Each process has its own superstep number; a process blocks until
// a predicate on its own state holds ("count messages of my superstep have arrived"), the
// scheduler's seeded choice picks among the runnable processes, and when every unfinished process
// is blocked with no way forward the run has deadlocked: the finding lists each process's state.
//
// The World knows only that a process is in ProcState::local_wait; everything else (what the
// process waits for, whether it can go on, how to describe it) is here and in the clients
// (engine/systems/cbsp_runtime.*), which keep their own per-process state beside this one.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "bspcheck/rules.hpp"
#include "runtime/base/site.hpp"

namespace bspcheck::rt {

class World;

// A user of the engine (one per interface: cBSP, BSPk), created on first use and kept for the run.
class LocalSyncClient {
 public:
  virtual ~LocalSyncClient() = default;
  // The running process has entered bsp_end (checks of what is still pending for it).
  virtual void before_end(int /*pid*/) {}
};

class LocalSync {
 public:
  explicit LocalSync(World& world);

  // What a blocked process waits for.
  struct Wait {
    std::function<bool()> ready;            // the process may go on
    std::function<std::string()> describe;  // "in cBSP_nsync(3) with 2 of 3 messages arrived"
    Rule rule_if_stuck;                     // the finding when the run deadlocks with it waiting
    int priority = 0;                       // of rule_if_stuck, when waits of several kinds are stuck
    // Optional: the process could make progress with less than ready() asks (a cBSP_nsync whose
    // arrived messages' handlers may send what it still waits for). Asked only when no process
    // can run otherwise; the lowest such pid is then released (wait_until returns true).
    std::function<bool()> partial{};
  };

  long superstep(int pid) const { return state_[static_cast<std::size_t>(pid)].superstep; }
  void set_superstep(int pid, long s) { state_[static_cast<std::size_t>(pid)].superstep = s; }
  bool waiting(int pid) const { return state_[static_cast<std::size_t>(pid)].wait != nullptr; }
  bool any_waiting() const;

  // Blocks the running process until wait.ready() holds (returns at once if it does). While
  // blocked the process is not runnable; notify() re-evaluates the predicate. Returns true when
  // the process was released by wait.partial instead (ready() does not hold).
  bool wait_until(Wait wait);
  // Something pid waits for may have happened: pid becomes runnable if its predicate holds.
  void notify(int pid);
  void notify_all();

  // A finding located at the running process's current call, in its own superstep (World::report
  // gives the BSPlib superstep, which a process of these systems does not count in).
  void report(Rule rule, std::string message, std::vector<int> processes = {});

  // Deadlock (World::deadlock_report calls this when some process waits here): one finding,
  // the rule of the most specific stuck wait, listing every process's state and call site.
  void report_deadlock();

  // The client of type T, created on first use.
  template <typename T>
  T& client() {
    auto& slot = clients_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_unique<T>(world_);
    return static_cast<T&>(*slot);
  }
  void before_end(int pid) {
    for (auto& [type, c] : clients_) c->before_end(pid);
    // The running process blocks in bsp_end next: if it was the last that could run, a process
    // that can go on with less is released, as wait_until does for the last one to block here.
    if (nothing_else_runnable(pid)) release_partial(pid);
  }

 private:
  struct ProcessState {
    long superstep = 0;
    std::unique_ptr<Wait> wait;  // null: not blocked here
    bool released = false;       // released by wait->partial (release_partial)
  };
  // No process other than `pid` is runnable (every other one waits or has finished).
  bool nothing_else_runnable(int pid) const;
  // Releases the lowest waiting process whose wait can go on with less (Wait::partial), waking
  // it unless it is the running process `self`. True if one was released.
  bool release_partial(int self);
  World& world_;
  std::vector<ProcessState> state_;
  std::unordered_map<std::type_index, std::unique_ptr<LocalSyncClient>> clients_;
};

}  // namespace bspcheck::rt
