#include "engine/core/world.hpp"

#include "checker/finding_text.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "replay/trace_format.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/executable/program_cleanups.hpp"
#include "runtime/executable/program_unwinder.hpp"
#include "runtime/memory_checks/asan_recovery.hpp"
#include "runtime/memory_checks/watchpoint_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <numeric>
#include <sstream>

#include <unistd.h>

namespace bspcheck::rt {

World* World::current_world_ = nullptr;

}  // namespace bspcheck::rt

// Where a debugger stops: `break bspcheck_breakpoint` with BSPCHECK_OPTIONS=break_superstep=S:
// break_process=K. Not inlined and with a side effect, so that the symbol and the call stay.
extern "C" __attribute__((noinline)) void bspcheck_breakpoint(int superstep, int process) {
  static volatile int hits;
  hits = hits + 1 + 0 * superstep * process;
}

bspcheck_debug_view bspcheck_debug{};

extern "C" __attribute__((noinline)) void bspcheck_world_started(void) {
  static volatile int calls;
  calls = calls + 1;
}

namespace bspcheck::rt {

namespace {

std::chrono::steady_clock::time_point g_real_start;

}  // namespace

World::World(const Options& options, Mode mode, int nprocs, std::function<void()> body, const GuideInMemory* guide,
             IdentifyProgram identify)
    : options_(options),
      mode_(mode),
      p_(nprocs),
      body_(std::move(body)),
      schedule_(
          options, [this](const std::string& what) { fatal(Rule::replay_divergence, what); },
          [this](const std::string& what) {
            std::fprintf(real_out[1], "bsp-check: note: superstep %d: %s\n", superstep_, what.c_str());
          },
          guide, identify),
      sched_(&schedule_.scheduler()),
      exceptions_(nprocs),
      regs_(nprocs),
      output_lines_(options.output_prefix, options.capture_output, options.echo_output),
      expected_line_(options.expected_line),
      messages_(nprocs),
      clock_(nprocs),
      work_(0, false) {
  diag_.configure(options.disabled_rules,
                  options.suppressions_file.empty() ? checker::Suppressions{}
                                                    : checker::Suppressions::load(options.suppressions_file),
                  options.werror);
  set_wrapper_files(options.wrapper_files);
  install_failed_allocation_handler();
  ignore_throws_of(typeid(ProcessExit));
  if (options.checks) checker_ = std::make_unique<checker::Checker>(diag_);
  poisoning_ = checker_ && options.asan_poisoning && Poisoning::available();
  if (Poisoning::available())
    Poisoning::set_reporter([this](const PoisonedRegion* r, std::uintptr_t, bool is_write, Caught how) {
      report_poisoned_access(r, is_write, how);
    });
  if (options.grant_fewer && p_ > 1) {
    // BSPlib 2.1: bsp_begin(maxprocs) starts *at most* maxprocs processes. The number granted is
    // the schedule's first choice (its default, for PCT and the guided scheduler, is all of
    // them), so it is traced, replayed and explored like any other.
    p_ = 1 + static_cast<int>(sched_->choose(ChoiceKind::grant, static_cast<std::uint32_t>(p_)));
    regs_ = RegistrationTable(p_);
    messages_.set_processes(p_);
    clock_ = VirtualClock(p_);
  }
  comm_ = HRelation(p_, mode_ == Mode::in_process);
  procs_.resize(static_cast<std::size_t>(p_));
  runnable_pos_.assign(static_cast<std::size_t>(p_), -1);
  for (int pid = 0; pid < p_; ++pid) {
    procs_[pid].pid = pid;
    make_runnable(pid);
  }
  procs_[0].started = true;
  procs_[0].begun = true;
  // Processes 1..p-1 get fibers; process 0 runs on the context that called bsp_begin.
  if (p_ > 1) {
    stacks_ = std::make_unique<StackPool>(options.stack_size, static_cast<std::size_t>(p_ - 1));
    for (int pid = 1; pid < p_; ++pid) {
      Process& pr = procs_[pid];
      pr.stack = stacks_->stack(static_cast<std::size_t>(pid - 1));
      make_context(pr.slot, pr.stack.top(), pr.stack.size, &World::process_entry, &pr);
    }
    unguarded_stacks_ = !stacks_->guarded();
  }
  work_ = WorkMeter(p_, options.measure_work && !options.trace_file.empty());
  break_pending_ = options.break_superstep >= 0;
  g_real_start = std::chrono::steady_clock::now();
  current_world_ = this;
  set_file_watch_caller(&World::running_caller);
  t_world_thread = true;  // the processes are fibers of this thread (engine/core/foreign_contexts.hpp)
  publish_debug_view();
  bspcheck_world_started();
}

bool World::running_caller(FileWatchCaller* who) {
  const World* w = current_world_;
  if (!w || w->running_ < 0 || w->running_ >= w->p_) return false;
  const Process& me = w->procs_[static_cast<std::size_t>(w->running_)];
  who->pid = me.pid;
  who->superstep = w->local_ ? static_cast<int>(w->local_->superstep(me.pid)) : w->superstep_;
  who->call = me.call;
  who->file = me.site.file;
  who->line = me.site.line;
  return true;
}

void World::publish_debug_view() {
  bspcheck_debug_view& v = bspcheck_debug;
  const auto at = [](const void* p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)); };
  const Process& r = procs_.front();
  const auto off = [&](const void* field) {
    return static_cast<std::int64_t>(reinterpret_cast<const char*>(field) - reinterpret_cast<const char*>(&r));
  };
  v.version = 1;
  v.procs = at(procs_.data());
  v.proc_size = static_cast<std::int64_t>(sizeof(Process));
  v.off_call = off(&r.call);
  v.off_file = off(&r.site.file);
  v.off_line = off(&r.site.line);
  v.off_state = off(&r.state);
  v.off_ctx = off(&r.slot.ctx);
  v.off_started = off(&r.started);
  v.running = at(&running_);
  v.superstep = at(&superstep_);
  v.break_pending = at(&break_pending_);
  v.break_superstep = at(&options_.break_superstep);
  v.break_process = at(&options_.break_process);
  // fcontext_jump steps over the red zone before it saves the context (runtime/fibers/fcontext_jump.hpp).
  v.resume_sp_adjust = BSPCHECK_BALANCED_JUMP ? 128 : 0;
  debug_ranges_.clear();
  if (globals_) {
    for (const PrivateGlobals::DebugRange& d : globals_->debug_ranges())
      debug_ranges_.push_back({d.lo, d.size, d.base, d.stride});
    v.resident = at(globals_->resident_address());
    v.ran = at(globals_->ran_flags());
  } else {
    v.resident = 0;
    v.ran = 0;
  }
  v.ranges = at(debug_ranges_.data());
  v.nranges = static_cast<std::int64_t>(debug_ranges_.size());
  v.world = at(this);
  v.nprocs = p_;  // last: a debugger reads a view with nprocs 0 as no World
}

World::~World() {
  if (Poisoning::available()) Poisoning::set_reporter(nullptr);
  for (Process& pr : procs_)
    if (pr.pid != 0) destroy_context(pr.slot);
  if (current_world_ == this) {
    current_world_ = nullptr;
    t_world_thread = false;
  }
  if (bspcheck_debug.world == reinterpret_cast<std::uintptr_t>(this)) bspcheck_debug = {};
}

std::vector<std::string> World::unchecked() const {
  std::vector<std::string> lines;
  // One line whatever the count, so that the driver lists it once for all the runs that had it.
  if (poison_.unwatched())
    lines.push_back(
        "hp-dst-read, get-dst-early-read: the last bytes of a destination that share an 8-byte granule with live "
        "memory (AddressSanitizer cannot poison them) were not watched: hardware watchpoints " +
        probe_watchpoints().describe());
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Traces

void World::traced_call_slow(trace::Call call, long target, long size, const void* data, std::size_t n) {
  trace::CallRecord rec;
  rec.call = call;
  rec.pid = static_cast<std::uint32_t>(running_);
  rec.target = target;
  rec.size = size;
  if (data && n) rec.checksum = trace::checksum(data, n, schedule_.data_checksum_version());
  // The work of a superstep is recorded just before the call that ends it (for the process).
  if (work_.on() && (trace::ends_superstep(call) || call == trace::Call::end))
    schedule_.work(rec.pid, work_.take(running_));
  schedule_.call(rec);
}

std::pair<std::uint64_t, std::uint64_t> World::trace_size() const { return schedule_.size(); }

void World::flush_trace() { schedule_.flush(); }

// ---------------------------------------------------------------------------------------------
// Processes and switching

void World::make_runnable(int pid) {
  if (runnable_pos_[pid] >= 0) return;
  runnable_pos_[pid] = static_cast<int>(runnable_.size());
  runnable_.push_back(pid);
}

void World::make_unrunnable(int pid) {
  int pos = runnable_pos_[pid];
  if (pos < 0) return;
  int last = runnable_.back();
  runnable_[pos] = last;
  runnable_pos_[last] = pos;
  runnable_.pop_back();
  runnable_pos_[pid] = -1;
}

void World::check_stack_canary(Process& me) {
  if (!me.stack.canary_intact())
    fatal(Rule::crash, "process " + std::to_string(me.pid) +
                           " overflowed its stack (detected after the fact: stacks are unguarded at this "
                           "many processes); raise the stack size with --stack-size");
}

void World::on_resume_slow() {
  if (stopping_ && std::uncaught_exceptions() == 0) throw ProcessExit{};
  maybe_break();
}

SpmdEnd run_spmd(const std::function<void()>& body, int pid) {
  SpmdEnd end;
  try {
    body();
  } catch (const ProcessExit&) {
    end.unwound = true;
  } catch (const std::bad_alloc& e) {
    end.unwound = true;
    end.rule = Rule::out_of_memory;
    end.stack = take_failed_allocation_stack();
    end.crash = "process " + std::to_string(pid) + " ran out of memory: an allocation failed (" + e.what() +
                ") and the program did not catch it";
  } catch (const std::exception& e) {
    end.unwound = true;
    end.stack = take_throw_stack();
    end.crash = "process " + std::to_string(pid) + " threw an uncaught exception: " + e.what();
  } catch (...) {
    end.unwound = true;
    end.stack = take_throw_stack();
    end.crash = "process " + std::to_string(pid) + " threw an uncaught exception";
  }
  return end;
}

void World::process_entry(void* arg) {
  Process& me = *static_cast<Process*>(arg);
  World& w = *current_world_;
  bool unwound = false;
  {  // leave() never returns, so nothing that owns memory may still be alive when it is called
    const SpmdEnd end = run_spmd(
        [&w, &me] {
          if (w.globals_) w.globals_->start_process(me.pid, w.globals_prepare_);
          prime_program_unwinder();  // its own copy, before a ProcessExit unwinds through the program
          w.body_();
        },
        me.pid);
    // Its static objects' destructors, as at the exit of a separate process (not when stopped).
    if (w.globals_ && !w.stopping_) w.globals_->finish_process(me.pid);
    unwound = end.unwound;
    if (!end.crash.empty()) {
      w.report_stopped(end);
      w.stopping_ = true;
    }
  }
  w.leave(me, unwound);
}

void World::leave(Process& me, bool unwound) {
  if (!unwound && !ending_ && !stopping_) {
    report(Rule::superstep_mismatch,
           "process " + std::to_string(me.pid) + " returned from its SPMD part without calling bsp_end");
    if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
    stopping_ = true;
  }
  // A program has no host to return to: a stopped run ends the OS process here, with its report.
  if (stopping_ && mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
  make_unrunnable(me.pid);
  me.state = ProcState::finished;
  ++finished_;
  flush_partial_lines(me);
  if (ending_ && finished_ == p_ - 1 && procs_[0].state == ProcState::in_end) make_runnable(0);

  // Who runs next: when stopping, any process that still has to unwind; otherwise the
  // scheduler's choice among the runnable ones.
  int next = -1;
  while (next < 0) {
    if (finished_ == p_) break;
    if (stopping_) {
      for (Process& pr : procs_) {
        if (pr.state == ProcState::finished) continue;
        if (!pr.started) {  // never ran: nothing to unwind
          make_unrunnable(pr.pid);
          pr.state = ProcState::finished;
          ++finished_;
          continue;
        }
        next = pr.pid;
        break;
      }
    } else if (!runnable_.empty()) {
      next = sched_->pick_next(RunnableSet{runnable_, runnable_pos_}, me.pid);
    } else {
      deadlock_report();
    }
  }
  if (next < 0) exit_context(me.slot, *host_);  // in-process run: everyone has finished
  running_ = next;
  procs_[next].started = true;
  ++switches_;
  if (watch_) watch_->collect(me.pid, me.site, me.call);
  if (globals_) switch_globals(me.pid, next);
  exceptions_.resume(next);
  if (work_.on()) work_.switched(-1, next);
  exit_context(me.slot, procs_[next].slot);
}

void World::block(ProcState state) {
  Process& me = self();
  make_unrunnable(me.pid);
  me.state = state;
  ++waiting_;
  if (state == ProcState::in_end) ++waiting_in_end_;
  if (waiting_ + finished_ == p_) {
    // Every process that has not finished waits: in bsp_sync, or in bsp_end (counted, not looked
    // up: a barrier's cost should not grow with a pass over every process for this).
    const bool all_sync = waiting_in_end_ == 0, all_end = waiting_in_end_ == waiting_;
    if (finished_ == 0 && (all_sync || all_end)) {
      // The barrier reads and writes every process's memory through canonical addresses.
      if (watch_) report_shared_writes();
      if (globals_) globals_->flush();
      barrier(!all_sync);
      if (globals_) globals_->reload();
      if (watch_) watch_->resnapshot();  // what the barrier wrote is no process's write
    } else {
      deadlock();
    }
  }
  if (runnable_.empty()) deadlock();
  int next = sched_->pick_next(RunnableSet{runnable_, runnable_pos_}, me.pid);
  if (next != me.pid) switch_to(next);
  else maybe_break();
}

void World::block_local() {
  Process& me = self();
  make_unrunnable(me.pid);
  me.state = ProcState::local_wait;
  if (runnable_.empty()) deadlock();
  switch_to(sched_->pick_next(RunnableSet{runnable_, runnable_pos_}, me.pid));
}

void World::wake_local(int pid) {
  Process& pr = procs_[static_cast<std::size_t>(pid)];
  if (pr.state != ProcState::local_wait) return;
  pr.state = ProcState::runnable;
  make_runnable(pid);
}

void World::hit_breakpoint() {
  break_pending_ = false;
  bspcheck_breakpoint(superstep_, running_);
}

void World::deadlock() {
  deadlock_report();
  if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
  throw ProcessExit{};
}

void World::fatal(Rule rule, std::string message, std::vector<int> processes) {
  report(rule, std::move(message), std::move(processes));
  stop();
}

void World::stop() {
  stopping_ = true;
  if (mode_ == Mode::program && on_fatal_stop) on_fatal_stop();
  throw ProcessExit{};
}

void World::abort_run(const std::string& text) {
  traced_call(trace::Call::abort, -1, 0, text.data(), text.size());
  flush_trace();
  std::string message = text;  // a format ending in "\n" is common; the finding has its own lines
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  aborted_ = true;
  abort_message_ = message;
  fatal(Rule::abort, "process " + std::to_string(running_) + " called bsp_abort: " + message);
}

// ---------------------------------------------------------------------------------------------
// SPMD and superstep

void World::sync() {
  if (__builtin_expect(foreign_thread_call_pending(), false)) report_foreign_thread_call();
  traced_call(trace::Call::sync, -1, 0);
  block(ProcState::in_sync);
}

void World::end() {
  if (__builtin_expect(foreign_thread_call_pending(), false)) report_foreign_thread_call();
  if (local_) local_->before_end(self().pid);
  traced_call(trace::Call::end, -1, 0);
  block(ProcState::in_end);
  // Past the final barrier. Processes 1..p-1 stop here (their stacks unwind to their entry, when
  // some frame of the program's may have a destructor to run: runtime/executable/program_cleanups.hpp);
  // process 0 is resumed only once all of them have finished, and returns.
  if (self().pid != 0) {
    if (program_frames_unwind() && program_code_has_cleanups()) throw ProcessExit{};
    end_without_unwinding(self());
  }
  self().state = ProcState::runnable;
}

void World::end_without_unwinding(Process& me) {
  if (globals_ && !stopping_) globals_->finish_process(me.pid);
  leave(me, true);
}

double World::time() {
  traced_call(trace::Call::time, -1, 0);
  if (options_.real_time) return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_real_start).count();
  // Virtual time (engine/core/virtual_clock.hpp): never the machine's, and by default not the seed's
  // either, so that a correct program printing its timings prints the same under every schedule.
  // With time_jitter a seeded jitter below 1 us is added at every reading, for programs that
  // want to see their timing logic exercised.
  if (options_.time_jitter) return clock_.advance(running_, sched_->choose(ChoiceKind::time, 1000) * 1e-9);
  return clock_.now(running_);
}

void World::barrier(bool final) {
  if (poisoning_) {  // the superstep's own computation is over
    poison_.release(Rule::hp_dst_read);
    poison_.release(Rule::get_dst_early_read);
  }
  // Sources held from their calls (bsp_direct_get's, bsp_hpsend's) must not have changed, before
  // anything of the exchange lands (what lands at the barrier comes after every read of them).
  if (checker_ && !held_sources_.empty()) checker_->check_hp_at_barrier(held_sources_, superstep_);
  held_sources_.clear();
  // The exchange (engine/core/barrier.hpp): pending hp operations, get sources, the checker's look
  // at every write, then the writes, gets before puts.
  Barrier(hp_, drma_, *sched_, checker_.get()).exchange(superstep_, [this](std::size_t i) { fire_hp(i, false); });
  if (registration_requests_) apply_registrations();
  registration_requests_ = false;
  if (tagsize_requests_) apply_tagsize();
  tagsize_requests_ = false;
  deliver_messages();
  const SuperstepStats stats = comm_.end_superstep();
  if (final && checker_ && regs_.live_slots() > 0) {
    std::vector<Site> sites;
    for (int slot : regs_.live_slot_ids())
      for (int pid = 0; pid < p_; ++pid)
        if (regs_.entry(slot, pid).addr) {
          sites.push_back(regs_.entry(slot, pid).site);
          break;
        }
    checker_->registrations_leaked(regs_.live_slots(), sites, superstep_);
  }

  // Virtual time: the BSP cost of the superstep.
  clock_.barrier(stats.h_bytes);

  waiting_ = 0;
  waiting_in_end_ = 0;
  if (!final) schedule_.superstep(static_cast<std::uint64_t>(superstep_ + 1));
  if (!final) {
    ++superstep_;
    // Every process was waiting, so none is runnable: all become runnable in pid order, the
    // order make_runnable would give them one by one.
    for (Process& pr : procs_) pr.state = ProcState::runnable;
    runnable_.resize(static_cast<std::size_t>(p_));
    std::iota(runnable_.begin(), runnable_.end(), 0);
    std::iota(runnable_pos_.begin(), runnable_pos_.end(), 0);
    if (__builtin_expect(!options_.hp_race_probes.empty(), false)) poison_hp_race_probes();
    return;
  }
  ending_ = true;
  for (Process& pr : procs_) {
    if (pr.pid == 0 && p_ > 1) continue;  // process 0 waits until the others have finished
    pr.state = ProcState::runnable;
    make_runnable(pr.pid);
  }
}

void World::level1_enter(const char* name, const Site& site) {
  Process& me = self();
  me.level1.push_back(
      {name ? name : "?", site,
       static_cast<long>(regs_.live_slots()) + static_cast<long>(me.pushes.size()) - static_cast<long>(me.pops.size()),
       me.tagsize_request >= 0 ? me.tagsize_request : messages_.tagsize(), messages_.pending(me.pid), superstep_});
}

void World::level1_exit(const char* name, const Site& site) {
  Process& me = self();
  if (me.level1.empty()) {
    report(Rule::api_misuse, "process " + std::to_string(me.pid) + " calls bspcheck_level1_exit(\"" +
                                 (name ? name : "?") + "\") without a matching bspcheck_level1_enter");
    return;
  }
  checker::HygieneState at_enter = std::move(me.level1.back());
  me.level1.pop_back();
  if (!checker_) return;
  checker::HygieneState now{
      at_enter.name,
      site,
      static_cast<long>(regs_.live_slots()) + static_cast<long>(me.pushes.size()) - static_cast<long>(me.pops.size()),
      me.tagsize_request >= 0 ? me.tagsize_request : messages_.tagsize(),
      messages_.pending(me.pid),
      superstep_};
  checker_->hygiene_exit(me.pid, at_enter, now, site);
}

}  // namespace bspcheck::rt
