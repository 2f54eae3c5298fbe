// bspcheck.hpp: run an SPMD function on p seeded coroutine processes, in-process, and get back
// what happened. This is what the project's own tests use and what it offers to users who want
// to test BSPlib code from GoogleTest or rapidcheck.
//
//   bspcheck::Options o;  o.procs = 4;  o.seed = 7;
//   bspcheck::RunResult r = bspcheck::run(o, [] {
//     bsp_begin(bsp_nprocs());
//     ...                      // ordinary BSPlib code
//     bsp_end();
//   });
//   EXPECT_TRUE(r.ok()) << r.summary();
//
// The function is the SPMD part in the style of bsp_init: it starts with bsp_begin(m), which
// grants min(m, o.procs) processes, and ends with bsp_end(). Every process runs the function.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bspcheck {

// docs/exploration.md describes each strategy.
enum class Strategy { random, round_robin, pct };

enum class Severity { warning, error };

// One frame of a call's stack: the function and, where the program has debug information, its line.
struct StackFrame {
  std::string function;  // empty when unknown
  std::string file;      // empty when unknown
  int line = 0;
  bool operator==(const StackFrame&) const = default;
};

// What Location::call holds at a location that is no BSPlib call but an event the engine
// locates: one name each, for the engine that sets them and the texts that read them.
namespace location_event {
inline constexpr const char* allocation = "allocation";              // where an allocation failed
inline constexpr const char* null_pointer_use = "null pointer use";  // where a null pointer was used
inline constexpr const char* read = "read";                          // an access checked by the sanitizer build: a read
inline constexpr const char* write = "write";                        // ... or a write
inline constexpr const char* signal = "signal";                      // where a signal stopped a process
inline constexpr const char* exit = "exit";                          // where a process called exit()
inline constexpr const char* thrown = "throw";                       // where an exception nothing caught was thrown
}  // namespace location_event

struct Location {
  std::string file;  // empty when unknown
  int line = 0;
  int process = -1;
  std::string call;  // the BSPlib primitive, e.g. "bsp_put", or the event (location_event)
  // A call made through a wrapper (a header, a file matching the `wrappers` option): its stack,
  // innermost first, from the wrapper's call of the primitive to and past the user's line that
  // file and line name. Empty for a call made directly.
  std::vector<StackFrame> stack;
  // What the process was doing there, when the finding says so (a timeout names every process's
  // state: "running", "waiting in bsp_sync", ...); empty for a call site.
  std::string state;
};

struct Finding {
  std::string rule;  // stable rule id, e.g. "bounds-put": bspcheck::rule_id(Rule::bounds_put), <bspcheck/rules.hpp>
  Severity severity = Severity::error;
  std::string message;
  std::vector<int> processes;
  int superstep = 0;
  std::vector<Location> locations;
};

// The first line where the failing run of a schedule-divergence prints otherwise than the reference
// run (a kept trace carries it beside the output digests): the run reports the divergence when
// process `process` completes that line, at the write itself, so that a replay under a debugger
// stops in the process that prints it (docs/debugging.md) rather than at the end of the run.
struct ExpectedLine {
  int process = -1;              // -1: none
  int stream = 0;                // 0 stdout, 1 stderr
  long line = 0;                 // from 1
  bool reference_has_it = true;  // false: the reference run printed fewer lines
  std::uint64_t digest = 0;      // the reference's line, without its newline (FNV-1a, 64 bits)
  bool operator==(const ExpectedLine&) const = default;
};

// The first byte where a file the failing run of a session wrote differs from the reference
// run's (docs/checks.md, schedule-divergence): the file by its kept name (cwd/order.txt, tmp/...,
// tmpdir/...), the byte's offset and its state in the reference run, 0 to 255, kFileEndsBefore or
// kFileAbsent. A kept trace carries it: its replay leaves the byte otherwise and fails the same
// way, located at the process that wrote it.
struct ExpectedFileByte {
  static constexpr int kFileEndsBefore = -1, kFileAbsent = -2;
  std::string name;  // empty: none expected
  std::uint64_t offset = 0;
  int state = 0;
  bool operator==(const ExpectedFileByte&) const = default;
};

// A range of a bsp_hpput's destination that its target may have touched in the same superstep
// before the call was made (the target had run in that superstep when the hpput was called):
// bsp-check run makes the run once more with the range poisoned from the superstep's start, so
// that the earlier read is caught as hp-dst-read (docs/checks.md, "ASan-only rules"). The
// destination is named by registration slot and offset, which a run of the same seed repeats
// whatever its addresses; the call site is the hpput's, for the finding.
struct HpRaceProbe {
  int superstep = 0;
  int target = 0;  // the process whose memory it is
  int slot = 0;    // the registration slot of the hpput's destination
  long offset = 0, nbytes = 0;
  int caller = 0;  // the process that called bsp_hpput
  int line = 0;    // the hpput's call site
  std::string file;
  bool operator==(const HpRaceProbe&) const = default;
};

struct Options {
  int procs = 4;           // processors available: bsp_begin(m) grants min(m, procs)
  std::uint64_t seed = 1;  // every nondeterministic choice is drawn from it
  Strategy strategy = Strategy::random;
  int pct_depth = 3;                    // pct: bug depth aimed at (depth - 1 change points)
  std::uint64_t pct_steps = 1000;       // pct: estimate of the run's decisions (change points in 1..this)
  std::size_t stack_size = 256 * 1024;  // per process, bytes (rounded up to pages)
  bool capture_output = true;           // keep each process's stdout/stderr in RunResult
  bool echo_output = false;             // also write it through to the real stdout/stderr
  std::string output_prefix;            // when echoing: prefix for each line, "%p" = pid
  bool real_time = false;               // bsp_time from the wall clock instead of virtual time
  // Virtual bsp_time also draws a seeded jitter below 1 us at every reading (docs/semantics.md).
  // Off by default: without it bsp_time is the same under every schedule and seed.
  bool time_jitter = false;
  // bsp_begin(maxprocs) may grant fewer processes than min(maxprocs, procs), as BSPlib allows
  // (section 2.1): the number granted, 1..that, is a choice of the schedule (docs/exploration.md).
  bool grant_fewer = false;
  // time(), gettimeofday() and clock_gettime() (wall and monotonic clocks) read each process's
  // virtual clock, a fixed epoch plus its virtual bsp_time: the same under every seed
  // (engine/core/libc_clocks.cpp). For programs that seed rand with the time or print timings.
  bool virtual_time = false;
  // getpid() gives process k the same value in every run (kStablePidBase + k, above any real
  // process id; kill() of it signals the program itself), so that a program that seeds rand with
  // its pid or names scratch files after it is reproducible (engine/core/libc_pid.cpp).
  bool stable_pid = false;
  bool checks = true;                       // run the checker (findings); false = runtime only
  std::vector<std::string> disabled_rules;  // rule ids never reported (e.g. "put-collision")
  std::string suppressions_file;            // findings matching a line of this file are dropped
  std::string wrapper_files;  // besides headers, files whose BSPlib calls are a wrapper's (comma-separated)
  bool werror = false;        // warnings count as errors (ok() and exit status)
  // The output digest of each process in a reference run (the kept trace of a schedule-divergence
  // carries them): a program run whose process prints otherwise reports schedule-divergence.
  std::vector<std::uint64_t> expected_output;
  ExpectedLine expected_line;      // with expected_output: where the first differing line is written
  ExpectedFileByte expected_file;  // a file divergence's reference byte, checked at the run's end
  // In AddressSanitizer builds, poison hp and get destinations and stale bsp_hpmove storage so
  // that forbidden reads stop the program with hp-dst-read, get-dst-early-read or hpmove-stale.
  // Tests that read such memory on purpose (to observe the semantics) turn it off.
  bool asan_poisoning = true;
  // In AddressSanitizer builds: hpput destinations to poison from the start of their superstep.
  std::vector<HpRaceProbe> hp_race_probes;
  std::string trace_file;  // record the run into this trace (docs/trace-format.md)
  // With trace_file: record each process's own CPU time between its switch points into the trace,
  // one work record per process and superstep (bsp-check show). A measurement only: no choice
  // depends on it, and replays and comparisons of traces ignore it.
  bool measure_work = false;
  std::string replay_file;  // replay the choices of this trace, checking every call
  std::string guide_file;   // follow this choice script leniently (bsp-check shrink)
  std::string guide_log;    // explore: log the choices offered (bsp-check explore)
  // For debuggers: call bspcheck_breakpoint() when process break_process first runs in superstep
  // break_superstep (gdb: `break bspcheck_breakpoint`). -1: never.
  int break_superstep = -1;
  int break_process = 0;
  // With trace_file: write only the recording's digest there (its length, calls and checksum:
  // trace::Digest), not its events; the determinism check's runs, which only compare.
  bool trace_digest = false;
};

// What one superstep communicated: the h-relation of the BSP cost model (BSPlib paper 5.1).
// Bytes count payload bytes of puts, gets (sent by the remote process, received by the caller)
// and sends (tag + payload); zero-byte and rejected operations do not count. A process's h is
// max(bytes it sends, bytes it receives); self-transfers count on both sides.
struct SuperstepStats {
  std::size_t h_bytes = 0;      // max over processes of max(sent, received) bytes
  std::size_t h_messages = 0;   // the same counting operations (puts, gets, sends) instead of bytes
  std::size_t total_bytes = 0;  // all bytes communicated in the superstep
  std::size_t total_operations = 0;
};

// One coverage tuple (docs/exploration.md, "Coverage"): in `superstep`, a choice of `kind`
// (numbered as in traces: 2 message order, 3 write order, 4 hp timing, 6 processes granted)
// took an outcome of class `outcome`: 0 its default (issue order kept, the last writer wins, hp
// "not yet", every process granted), 1 its first option, 2 another one.
struct CoverageTuple {
  int superstep = 0;
  int kind = 0;
  int outcome = 0;
  auto operator<=>(const CoverageTuple&) const = default;
};

struct RunResult {
  int nprocs = 0;  // p granted by bsp_begin (0 if never called)
  std::uint64_t seed = 0;
  int supersteps = 0;    // number of completed bsp_sync barriers
  bool aborted = false;  // bsp_abort was called, or an error stopped the run
  std::string abort_message;
  std::vector<Finding> findings;
  std::vector<std::string> output;              // per process: everything it wrote to stdout and stderr
  std::uint64_t switches = 0;                   // process switches performed
  std::vector<SuperstepStats> superstep_stats;  // one per completed superstep, then one for the
                                                // part ending at bsp_end
  std::vector<CoverageTuple> coverage;          // the distinct coverage tuples the run reached, sorted

  bool werror = false;  // copied from Options: warnings count as errors
  bool ok() const;      // no error findings (or any finding, with werror), not aborted
  std::size_t count(const std::string& rule) const;
  std::string summary() const;  // findings, one per line, for test failure messages
};

// Runs spmd on a fresh world. Not reentrant: one run at a time per OS thread.
RunResult run(const Options& options, const std::function<void()>& spmd);

// A strategy's name as --strategy and BSPCHECK_OPTIONS write it ("random", "round_robin", "pct"),
// and back (false: no strategy has that name). One list for the driver, programs and tests.
std::string strategy_name(Strategy s);
bool strategy_from_name(const std::string& name, Strategy& s);
// "bsp-check run -p P --seed S [--strategy X] PROGRAM": how a program runs (p, seed, strategy)
// again, as the driver prints it with its findings.
std::string reproduce_command(int p, std::uint64_t seed, Strategy strategy, const std::string& program);

}  // namespace bspcheck
