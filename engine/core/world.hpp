// world.hpp: the p processes of one BSPlib run and the superstep engine that applies the
// paper's semantics to their calls. The C shim (c_api.cpp) turns each primitive into a call of
// a World method; the World decides when to switch processes (through the Scheduler), records
// what must happen at the barrier, and performs it there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "bspcheck/rules.hpp"
#include "checker/diagnostics.hpp"
#include "runtime/memory_checks/asan_poisoning.hpp"
#include "runtime/base/byte_arena.hpp"
#include "runtime/fibers/exception_state.hpp"
#include "runtime/fibers/fiber_stack.hpp"
#include "runtime/isolation/private_globals.hpp"
#include "engine/core/barrier.hpp"
#include "engine/core/drma_buffer.hpp"
#include "engine/core/expected_line_watch.hpp"
#include "engine/core/h_relation.hpp"
#include "engine/core/hp_operations.hpp"
#include "engine/core/local_sync.hpp"
#include "engine/core/message_exchange.hpp"
#include "engine/core/output_capture.hpp"
#include "engine/core/process.hpp"
#include "engine/core/registration_sync.hpp"
#include "engine/core/traced_schedule.hpp"
#include "engine/core/virtual_clock.hpp"
#include "engine/core/work_meter.hpp"
#include "engine/core/registration_table.hpp"
#include "runtime/scheduling/scheduler.hpp"
#include "runtime/isolation/file_byte_watch.hpp"
#include "runtime/isolation/shared_write_watch.hpp"

extern "C" void bspcheck_breakpoint(int superstep, int process);

// What a debugger needs of the running World (tools/gdb/bspcheck_gdb.py, docs/debugging.md),
// found from this one symbol without the runtime's debug information (a release build has none
// that a user's gdb could rely on): every field is 8 bytes, in this order, so the gdb extension
// reads it with one struct.unpack, and `version` changes when the layout does. Written when a
// World starts, when it gets private globals and when it ends; never on the hot path: it points
// at the World's own fields (the running pid, the superstep, the process records with their
// saved contexts), which the engine keeps up to date anyway.
struct bspcheck_debug_range {  // process k's copy of [lo, lo+size) is at base + k*stride
  std::uint64_t lo, size, base, stride;
};
extern "C" struct bspcheck_debug_view {
  std::int64_t version;  // 1
  std::int64_t nprocs;   // 0: no World runs
  std::uint64_t procs;   // the process records (engine/core/process.hpp), proc_size bytes apart
  std::int64_t proc_size;
  std::int64_t off_call, off_file, off_line, off_state, off_ctx, off_started;  // in a record
  std::uint64_t running;                                                       // int*: the running pid
  std::uint64_t superstep;                                      // int*: the superstep of the global barriers
  std::uint64_t break_pending, break_superstep, break_process;  // bool*, int*, int*
  std::int64_t resume_sp_adjust;  // bytes between a saved context's resume sp and its frame's
  std::uint64_t resident;         // int*: the process whose globals are in place (0: shared globals)
  std::uint64_t ranges;           // bspcheck_debug_range[nranges]: the private globals
  std::int64_t nranges;
  std::uint64_t ran;    // uint8_t[nprocs]: the process's slot holds its globals
  std::uint64_t world;  // the World
} bspcheck_debug;
// Called (not inlined) once the World exists and before any process runs, so that a debugger
// can arm its breakpoints in it (bsp break before `run`).
extern "C" void bspcheck_world_started(void);

namespace bspcheck::rt {

// Thrown into a process to unwind its stack back to its entry: after bsp_end on processes
// 1..p-1, and when a run is stopped (bsp_abort, a fatal error). Not derived from std::exception
// so that user code catching std::exception does not swallow it.
struct ProcessExit {};

// How a process's SPMD function ended: returned, unwound by a ProcessExit, or stopped by an
// uncaught exception (`crash` then says which, for the crash finding).
struct SpmdEnd {
  bool unwound = false;
  std::string crash;        // what stopped the process, when it did not return
  Rule rule = Rule::crash;  // out_of_memory for a bad_alloc
  std::uint32_t stack = 0;  // the failed allocation's, or the throw's, stack (runtime/executable/call_stacks.hpp)
};
SpmdEnd run_spmd(const std::function<void()>& body, int pid);

class World {
 public:
  enum class Mode {
    in_process,  // bspcheck::run: every process is a fiber; the caller is the host
    program,     // a linked program: process 0 is the thread that called bsp_begin
  };

  // guide: an in-process search's schedule (engine/core/traced_schedule.hpp), or nullptr;
  // identify: what a trace says of the program (the host's: program mode has one), or nullptr.
  World(const Options& options, Mode mode, int nprocs, std::function<void()> body, const GuideInMemory* guide = nullptr,
        IdentifyProgram identify = nullptr);
  ~World();

  // The world of the running BSPlib computation, or nullptr outside bsp_begin/bsp_end.
  static World* current() { return current_world_; }
  // Who runs, for a watched file's change (runtime/isolation/file_byte_watch.hpp): the running
  // process of the current World, its superstep and its last BSPlib call. Only reads.
  static bool running_caller(FileWatchCaller* who);

  int nprocs() const { return p_; }
  int pid() const { return running_; }
  Process& self() { return procs_[static_cast<std::size_t>(running_)]; }
  int superstep() const { return superstep_; }
  checker::Diagnostics& diagnostics() { return diag_; }
  // Checks this run could not make (checker::RunReport::unchecked).
  std::vector<std::string> unchecked() const;
  // What a timeout's finding adds when the running process may be waiting, without BSPlib calls,
  // for another process's communication of this superstep: the unbuffered operations into its
  // memory still pending, the processes that have made no call yet in this superstep ("" when
  // there are neither).
  std::string timeout_hazard() const;
  // The hpput destinations this run found its target already running in the superstep when the
  // call was made (engine/core/hp_race_probes.cpp): bsp-check run makes the run once more with each
  // poisoned from its superstep's start (Options::hp_race_probes).
  const std::vector<HpRaceProbe>& hp_race_probes_found() const { return probes_found_; }
  const Options& options() const { return options_; }
  // The running process's virtual clock (its bsp_time), advanced by `step` seconds first; for
  // the C library's clocks under virtual_time (engine/core/libc_clocks.cpp). Not a traced call.
  double read_virtual_clock(double step) { return clock_.advance(running_, step); }
  bool stopping() const { return stopping_; }
  void request_stop() { stopping_ = true; }
  std::uint64_t switches() const { return switches_; }
  ProcessTable& processes() { return procs_; }

  // Called on a process's own context once its SPMD function has returned (unwound: by a
  // ProcessExit). Hands the processor on and never returns.
  [[noreturn]] void leave(Process& me, bool unwound);
  // Ends process `me` (1..p-1) at bsp_end in place, as process_entry does after its stack has
  // unwound, with the stack left as it is: for an executable whose frames cannot be unwound
  // (program_unwinder.hpp). Its stack objects' destructors do not run, as at a separate
  // process's exit(); its static objects' do.
  [[noreturn]] void end_without_unwinding(Process& me);
  // In-process runs: the host context, resumed when every process has finished, and the
  // context process 0 already runs on (its sanitizer bookkeeping is carried over).
  void adopt_contexts(ContextSlot* host, const ContextSlot& process0, const FiberStack& stack0) {
    host_ = host;
    procs_[0].slot = process0;
    procs_[0].stack = stack0;
  }

  // Whose memory an address is (engine/core/world_memory.cpp): the process whose stack holds p (-1:
  // none); whether p is in the executable's data (a global or static: with private globals,
  // each process's own copy); whether every process shares one heap and the globals by design
  // (bspcheck::run, where the SPMD function's captures are shared).
  int stack_owner(const void* p) const;
  bool in_program_data(const void* p) const;
  bool in_process() const { return mode_ == Mode::in_process; }

  // Called at the start of every primitive: records the call, charges it to the process's
  // virtual clock (engine/core/virtual_clock.hpp) and returns the process. The site comes as its
  // fields, stored one by one: a Site copied whole is read 16 bytes at a time, which stalls when
  // its fields were just stored separately (c_api.cpp, enter_at).
  Process& enter(const char* call, const char* file, int line, const void* pc, std::uint32_t stack = 0) {
    Process& me = self();
    me.call = call;
    me.site.file = file;
    me.site.line = line;
    me.site.stack = stack;
    me.site.pc = pc;
    clock_.call(running_);
    return me;
  }
  Process& enter(const char* call, const Site& site) { return enter(call, site.file, site.line, site.pc, site.stack); }

  // A switch point: fires due hp operations, then lets the scheduler pick who runs next. Every
  // BSPlib call ends in one, so the common case (no hp operation pending, the default strategy)
  // is inline down to the jump into the next process.
  void switch_point() {
    if (__builtin_expect(hp_.any_pending(), false)) maybe_fire_hp();
    if (runnable_.size() <= 1) return;
    const int next = sched_->pick_next(RunnableSet{runnable_, runnable_pos_}, running_);
    if (next != running_) switch_to(next);
  }

  // The primitives (argument checking is done here too; see c_api.cpp for the C entry points,
  // which follow each of these but sync, end, abort_run and time with switch_point()).
  void sync();
  void end();
  [[noreturn]] void abort_run(const std::string& message);
  double time();
  void push_reg(const void* ident, int size);
  void pop_reg(const void* ident);
  void put(int pid, const void* src, void* dst, int offset, int nbytes, bool unbuffered);
  void get(int pid, const void* src, int offset, void* dst, int nbytes, bool unbuffered);
  // MulticoreBSP for C's bsp_direct_get: reads process pid's registered memory at once, wherever
  // that process is in its superstep (engine/core/world_drma.cpp).
  void direct_get(int pid, const void* src, int offset, void* dst, int nbytes);
  void set_tagsize(int* tag_nbytes);
  // True when the message was sent (false: a finding said why not).
  bool send(int pid, const void* tag, const void* payload, int payload_nbytes);
  // MulticoreBSP's bsp_hpsend: sent as bsp_send (copied at the call, which gives every correct
  // program its result), with tag and payload held until the barrier: MulticoreBSP may read
  // them at any moment until then, so a change before it is hp-src-modified.
  void hpsend(int pid, const void* tag, const void* payload, int payload_nbytes);
  void qsize(int* nmessages, int* accum_nbytes);
  void get_tag(int* status, void* tag);
  void move(void* payload, int reception_nbytes);
  int hpmove(void** tag_ptr, void** payload_ptr);

  // Processes leaving supersteps without a global barrier (cBSP, BSPk): the engine, created on
  // first use; it blocks the running process (block_local) until it wakes it (wake_local).
  LocalSync& local_sync() {
    if (!local_) local_ = std::make_unique<LocalSync>(*this);
    return *local_;
  }
  void block_local();
  Scheduler& scheduler() { return *sched_; }  // for the seeded choices of local-sync clients
  void wake_local(int pid);
  // Some process other than `pid` may run (the runnable list's size: no pass over the processes).
  bool runnable_besides(int pid) const {
    return runnable_.size() > (runnable_pos_[static_cast<std::size_t>(pid)] >= 0 ? 1u : 0u);
  }

  // Records (or, replaying, checks) the running process's call; data is what it sends. Public
  // for the cBSP and BSPk entry points (cbsp_api.cpp, bspk_api.cpp).
  void traced_call(trace::Call call, long target, long size, const void* data = nullptr, std::size_t n = 0) {
    if (schedule_.tracing()) traced_call_slow(call, target, size, data, n);
  }
  bool tracing() const { return schedule_.tracing(); }

  // Reports a finding located at the running process's last call; with `stack`
  // (runtime/executable/call_stacks.hpp), at the program's line in that stack, named `what` there (a
  // location_event, e.g. allocation) instead of the call.
  void report(Rule rule, std::string message, std::vector<int> processes = {}, std::uint32_t stack = 0,
              const char* what = nullptr);
  // Reports a finding of the running process at two places: the program's line in `stack` where
  // `what` (a location_event: a signal, an exit, a throw) happened, and its last BSPlib call. Where `stack`
  // has no line of the program (no debug information), at the last call only. True when located
  // at the program's line.
  bool report_event(Rule rule, std::string message, std::uint32_t stack, const char* what);
  // Reports what stopped the running process's SPMD part (run_spmd's `end.crash`): a bad_alloc at
  // the failed allocation, an exception at the line that threw it.
  void report_stopped(const SpmdEnd& end);
  // Stops the run after an error that leaves no meaningful way to continue.
  [[noreturn]] void fatal(Rule rule, std::string message, std::vector<int> processes = {});
  // Stops the run after a finding already reported.
  [[noreturn]] void stop();

  // Output written by the running process of the running world (the capture's sink,
  // engine/core/output_capture.hpp).
  static void on_output(int stream, const char* data, std::size_t n);
  // Captures the processes' output (engine/core/output_capture.hpp), real_out pointing at the originals.
  std::unique_ptr<OutputCapture> capture_output();
  // A process's unfinished lines, shown at its end; with a newline unless `terminate` is false.
  void flush_partial_lines(Process& pr, bool terminate = true);
  // Where process pr is, for the output prefix's %s and %c.
  LineContext line_context(const Process& pr) const;
  // Has the watched line of a kept divergence been printed otherwise than the reference's (the
  // divergence is then reported already, at the write)?
  bool expected_line_diverged() const { return expected_line_.diverged(); }

  // Program mode: each process gets its own copy of the executable's globals (private_globals.hpp).
  // `prepare` runs on each process 1..p-1 before its constructors (the output capture's streams).
  void set_private_globals(std::unique_ptr<PrivateGlobals> globals, std::function<void()> prepare) {
    globals_ = std::move(globals);
    globals_prepare_ = std::move(prepare);
    publish_debug_view();
  }

  // Program mode: report variables that processes share although separate processes would not.
  void set_shared_write_watch(std::unique_ptr<SharedWriteWatch> watch) { watch_ = std::move(watch); }

  // Hooks for program mode: where output goes and what happens on a fatal stop.
  std::FILE* real_out[2] = {stdout, stderr};
  std::function<void()> on_fatal_stop;  // program mode: write the report and _exit

  bool aborted() const { return aborted_; }
  const std::string& abort_message() const { return abort_message_; }
  int completed_supersteps() const { return superstep_; }
  const std::vector<SuperstepStats>& superstep_stats() const { return comm_.stats(); }

  // Writes what the trace has so far (a stopped run keeps a usable trace).
  void flush_trace();
  // Bytes written to the trace and calls recorded in it (0, 0 when not recording).
  std::pair<std::uint64_t, std::uint64_t> trace_size() const;
  // The coverage tuples the run's choices reached (runtime/scheduling/coverage_map.hpp).
  std::vector<CoverageTuple> coverage() const { return schedule_.coverage().tuples(); }

  // Level-1 hygiene brackets (include/bspcheck/hygiene.h).
  void level1_enter(const char* name, const Site& site);
  void level1_exit(const char* name, const Site& site);

 private:
  static void process_entry(void* arg);
  // Where the engine reaches process owner's copy of p (p itself unless p is a private global).
  void* canonical(int owner, const void* p) const {
    return globals_ ? globals_->canonical(owner, p) : const_cast<void*>(p);
  }
  void block(ProcState state);
  void make_runnable(int pid);
  void make_unrunnable(int pid);
  // Hands the processor to process `next` and returns when this process is resumed.
  void switch_to(int next) {
    Process& me = self();
    if (__builtin_expect(unguarded_stacks_, false)) check_stack_canary(me);
    Process& to = procs_[static_cast<std::size_t>(next)];
    to.started = true;
    running_ = next;
    ++switches_;
    if (__builtin_expect(watch_ != nullptr, false)) watch_->collect(me.pid, me.site, me.call);
    if (globals_) switch_globals(me.pid, next);
    exceptions_.switch_to(me.pid, next);
    if (__builtin_expect(work_.on(), false)) work_.switched(me.pid, next);
    switch_context(me.slot, to.slot);
    // Resumed: whoever switched here has set running_ to our pid.
    if (__builtin_expect(stopping_ || break_pending_, false)) on_resume_slow();
  }
  // Private globals: the live values, and the poisoning of private regions, become `to`'s.
  void switch_globals(int from, int to) {
    if (poisoning_) poison_.leave_process();
    globals_->switch_to(from, to);
    if (poisoning_) poison_.switch_process(to);
  }
  void traced_call_slow(trace::Call call, long target, long size, const void* data, std::size_t n);
  void on_resume_slow();  // unwinds a stopped run; the debugger hook
  void check_stack_canary(Process& me);
  // Reports the BSPlib call another thread made (engine/core/foreign_contexts.hpp) and stops the run.
  [[noreturn]] void report_foreign_thread_call();
  void maybe_fire_hp();  // at a switch point: perhaps perform one pending hp operation now
  // Debugger hook: calls bspcheck_breakpoint() once, when the chosen process first runs in the
  // chosen superstep (Options::break_superstep); a break_process of -1, which only a debugger
  // writes (gdb's `bsp break S`, through bspcheck_debug), stops whichever process runs first.
  void maybe_break() {
    if (break_pending_ && superstep_ == options_.break_superstep &&
        (options_.break_process < 0 || running_ == options_.break_process))
      hit_breakpoint();
  }
  void hit_breakpoint();
  void publish_debug_view();       // fills bspcheck_debug (above) for this World
  bool break_pending_ = false;     // a breakpoint superstep is set and has not been hit yet
  bool unguarded_stacks_ = false;  // stacks have canaries instead of guard pages
  void barrier(bool final);
  void apply_registrations();
  void apply_tagsize();
  void deliver_messages();
  void fire_hp(std::size_t pending_index, bool during_superstep);
  void report_poisoned_access(const PoisonedRegion* region, bool is_write, Caught how);
  // A finding of the running process in the current superstep, its locations still to be added.
  Finding running_finding(Rule rule, std::string message) const;
  void record_hp(const void* src, void* dst, int nbytes, int src_owner, int dst_owner);
  // engine/core/hp_race_probes.cpp: an hpput into process `target`, which may have touched the
  // destination earlier in the superstep, is noted; a probe asked for is poisoned at its
  // superstep's start.
  void note_hp_race_probe(int target, const void* dst_reg, long offset, long nbytes);
  void poison_hp_race_probes();
  bool made_call_this_superstep(const Process& pr) const;
  [[noreturn]] void deadlock();
  void deadlock_report();
  // Resolves the caller's registered address on the target; nullptr (after reporting) if the
  // access is not allowed. `extent` receives the target's registered size.
  void* resolve(int target, const void* local_addr, long offset, long nbytes, bool is_put, long* extent);
  bool check_transfer_args(int pid, int offset, int nbytes, const void* local, const char* local_name);

  static World* current_world_;

  Options options_;
  Mode mode_;
  int p_;
  std::function<void()> body_;
  TracedSchedule schedule_;  // the run's scheduler chain, and the trace it records or replays
  Scheduler* sched_;         // schedule_.scheduler(): asked at every call, so held directly
  std::unique_ptr<StackPool> stacks_;
  ProcessTable procs_;
  ContextSlot* host_ = nullptr;
  int running_ = 0;
  PerProcess<int> runnable_;      // pids that may run
  PerProcess<int> runnable_pos_;  // index of each pid in runnable_, or -1
  int waiting_ = 0;               // processes in bsp_sync or bsp_end
  int waiting_in_end_ = 0;        // of those, the ones in bsp_end
  int finished_ = 0;
  // Whether any process called bsp_push_reg/bsp_pop_reg, or bsp_set_tagsize, in this superstep:
  // a barrier looks at every process's requests only then (an empty superstep touches nothing
  // of a process but its state).
  bool registration_requests_ = false;
  bool tagsize_requests_ = false;
  int superstep_ = 0;
  bool ending_ = false;    // the final barrier has passed: processes 1..p-1 unwind
  bool stopping_ = false;  // the run is being stopped: every process unwinds
  bool aborted_ = false;
  std::string abort_message_;
  std::uint64_t switches_ = 0;
  ExceptionStates exceptions_;  // each process's C++ exception state, switched with it
  mutable std::uintptr_t main_stack_lo_ = 0, main_stack_hi_ = 0;  // process 0's, in program mode

  RegistrationTable regs_;
  DrmaBuffer drma_;  // buffered puts and gets until the barrier
  HpOperations hp_;  // this superstep's hpput/hpget, performed or not
  // Sources that must not change from their call to the barrier besides hp operations': what
  // bsp_direct_get read at its call, what bsp_hpsend may read until the sync. The checker looks
  // at the barrier (hp-src-modified).
  std::vector<checker::HpRecord> held_sources_;
  // Records the n bytes at p of process owner's (its private globals flushed by the caller), as
  // read by the running process's call now.
  void hold_until_barrier(int owner, const void* p, std::size_t n);
  std::unique_ptr<checker::Checker> checker_;  // null with Options::checks off
  std::unique_ptr<PrivateGlobals> globals_;    // null: all processes share the globals
  std::function<void()> globals_prepare_;
  std::unique_ptr<SharedWriteWatch> watch_;  // null: no shared variables to watch
  std::unique_ptr<LocalSync> local_;         // null: no cBSP/BSPk call made yet
  void report_shared_writes();               // at the barrier: global-shared findings
  HRelation comm_;  // each process's communication in the superstep, and every superstep's stats
  // AddressSanitizer builds with checks on: forbidden regions are poisoned (asan_poisoning.hpp),
  // and message storage of past supersteps is kept, poisoned, for a while instead of reused.
  bool poisoning_ = false;
  std::vector<std::unique_ptr<ByteArena>> retired_messages_;  // (declared first: freed after poison_ unpoisons)
  std::vector<PoisonedRegion> hpmove_handouts_;               // this superstep's bsp_hpmove results
  Poisoning poison_;
  std::vector<HpRaceProbe> probes_found_;  // hp_race_probes_found()
  OutputLines output_lines_;               // where the processes' output goes
  ExpectedLineWatch expected_line_;        // a kept divergence's first differing line (Options::expected_line)
  void report_line_divergence(const Process& me, const std::string& line);
  MessageExchange messages_;  // BSMP: queues, tag size, message storage
  VirtualClock clock_;        // each process's virtual bsp_time
  WorkMeter work_;            // each process's CPU time, when measured (Options::measure_work)

  checker::Diagnostics diag_;
  // What bspcheck_debug.ranges points at. Last: the hot members keep their offsets.
  std::vector<bspcheck_debug_range> debug_ranges_;
};

}  // namespace bspcheck::rt
