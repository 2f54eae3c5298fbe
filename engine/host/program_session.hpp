// program_session.hpp: everything program mode (a program linked with the runtime) keeps from
// its start to its exit, in one object. Program mode is not a call with a beginning and an end:
// it is reached from a shared object's constructor, bsp_init, bsp_begin, bsp_end, the exit() and
// signal interposers and the exit handlers, so what they share lives as long as the process does.
#pragma once

#include <sys/resource.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checker/finding_codec.hpp"
#include "engine/core/output_capture.hpp"
#include "engine/core/world.hpp"
#include "engine/host/dialect.hpp"
#include "runtime/base/site.hpp"
#include "runtime/options/options.hpp"

namespace bspcheck::rt::program {

struct ProgramSession {
  // --- the program as started ---------------------------------------------------------------
  // main's arguments, copied by a constructor of the runtime library: processes 1..p-1 of a
  // bsp_begin-first program restart main with them (each its own copy: getopt permutes argv).
  std::vector<std::string> arg_copy;
  // The SPMD function a bsp_init named (nullptr: processes 1..p-1 run main again).
  void (*spmd)(void) = nullptr;
  // bsp_init programs: the globals when bsp_init was called, which processes 1..p-1 start from.
  std::vector<std::byte> globals_at_init;
  Dialect dialect = Dialect::classic;  // begin_in_dialect(): which BSPlib the program began through

  // --- the options, read from BSPCHECK_OPTIONS when first asked (options()) ----------------------
  ProgramOptions opts;
  bool opts_read = false;  // read again in each child of a fork server, which has its run's options

  // --- the SPMD section running now ---------------------------------------------------------
  // Created by bsp_begin, destroyed by bsp_end. A run that ends otherwise (exit, a crash, a
  // timeout) ends the process with _Exit while it exists; only a child the program forked during
  // the run destroys it, with the session, when it exits.
  std::unique_ptr<World> world;
  std::unique_ptr<OutputCapture> capture;  // the program's stdout/stderr, per process, while it runs
  // The argv of each process that restarted main (program_begin.cpp, spmd_body): held here, not
  // on the process's stack, which bsp_end may give back without unwinding it (World::end), and
  // freed with the world.
  struct RestartArgv {
    std::vector<std::string> args;
    std::vector<char*> argv;
  };
  std::vector<std::unique_ptr<RestartArgv>> restart_argv;  // (a deque is not constinit)
  Site begin_site;  // process 0's bsp_begin, where a process that never ran is located

  // --- MulticoreBSP's sections one after another (bsp_begin again after bsp_end) -------------------
  int section = 0;                       // sections begun so far
  checker::RunReport finished_sections;  // what the finished ones reported, summed

  // --- the run's outcome and its report -----------------------------------------------------------
  std::size_t errors = 0;       // error findings of the finished run, for the exit status
  bool outside_misuse = false;  // a primitive was called outside bsp_begin/bsp_end
  bool report_written = false;  // bsp_end (or the run's end) wrote the report: the SPMD part is over
  // Misuse before bsp_begin or after bsp_end, and crashes after bsp_end: findings of no superstep,
  // added to the report whenever they happen (after bsp_end the report is written again).
  std::vector<Finding> outside_findings;
  std::uint64_t outside_repeats = 0;  // findings outside the SPMD part not printed again
  checker::RunReport report;          // the report as last written
  Location end_location;              // process 0's bsp_end, where a crash after it is located
  int final_superstep = 0;            // the superstep of bsp_end, for findings after it

  // --- how the program ends -------------------------------------------------------------------
  // The program called exit (the interposer), as opposed to returning from main, where the C
  // library calls its own exit; and where, when it did so in the SPMD part (taken there: at_exit's
  // stack would show the interposer between the C library's exit and the program).
  bool called_exit = false;
  std::uint32_t exit_stack = 0;

  // --- process 0's stack, when it is the main thread's (size_main_stack) -------------------------
  // The lowest address it may grow to, and the limit (0: not known; the crash handler then cannot
  // tell its overflow from another fault).
  std::uintptr_t main_stack_low = 0;
  std::size_t main_stack_limit = 0;
  bool main_stack_capped = false;  // --stack-size is above the hard limit (ulimit -Hs)
  // RLIMIT_STACK as it was before bsp_begin changed it, set back at bsp_end.
  rlimit stack_rlimit_before{RLIM_INFINITY, RLIM_INFINITY};
  bool stack_rlimit_changed = false;
};

// The one session of this process. Constant-initialised (constinit), so that the constructor that
// copies main's arguments may run before any dynamic initializer. Defined in program_session.cpp
// before the exit handler that reports a program without bsp_begin: exit handlers run in reverse
// order, so that handler (and at_exit, registered later by bsp_begin) runs before its destructor.
extern constinit ProgramSession g_session;

// The options of this run (BSPCHECK_OPTIONS), read when first asked.
const ProgramOptions& options();
// How to reproduce this run, printed with findings.
std::string repro_command();

}  // namespace bspcheck::rt::program
