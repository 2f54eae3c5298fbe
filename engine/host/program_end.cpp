// program_end.cpp: the end of a program in program mode: bsp_end (process 0 goes on without the
// world), the run stopped (stop_program), the program's exit (at_exit, and the exit() interposer
// that tells a call of exit from a return from main), and what the run leaves to check then (a
// watched file's byte, the expected output, the kept files). The exit status becomes non-zero
// when errors were found, the way sanitizers do it.
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "checker/finding_text.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/host/program_end.hpp"
#include "engine/host/program_report.hpp"
#include "engine/host/program_session.hpp"
#include "runtime/base/interpose.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/isolation/file_byte_watch.hpp"
#include "runtime/isolation/fork_server.hpp"
#include "runtime/isolation/kept_files.hpp"

using bspcheck::rt::next_definition;

namespace bspcheck::rt {

namespace program {

namespace {

// How a watched byte ended (runtime/isolation/file_byte_watch.hpp).
std::string byte_state_text(int state) {
  if (state == kFileEndsBefore) return "beyond the file's end";
  if (state == kFileAbsent) return "in no file (there is none)";
  char text[32];
  if (state >= 0x20 && state < 0x7f) std::snprintf(text, sizeof text, "'%c' (0x%02x)", state, state);
  else std::snprintf(text, sizeof text, "0x%02x", state);
  return text;
}

// The end of the watch of a file's byte: a kept trace's expectation (expect_file) that the run does
// not meet is schedule-divergence, located at the process that last wrote the byte (its last
// BSPlib call before the write), as the session that kept the trace reported it.
void finish_watching_file(int pid, int superstep, const char* call, const char* file, int line) {
  const FileByteChange* last = nullptr;
  int state = 0;
  if (!finish_file_watch(pid, superstep, call, file, line, &last, &state)) return;
  const ExpectedFileByte& e = options().run.expected_file;
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.severity = rule_severity(Rule::schedule_divergence);
  f.message =
      "the run leaves " + e.name + " otherwise than the reference run of its session: byte " +
      std::to_string(e.offset) + " is " + byte_state_text(state) + ", the reference run's " + byte_state_text(e.state) +
      (last->seen ? " (the location: the process that last wrote it, at its last BSPlib call before the write)" : "");
  if (last->seen) {
    f.processes = {last->pid};
    f.superstep = last->superstep;
    f.locations = {Location{last->file, last->line, last->pid, last->call, {}, {}}};
  }
  ++g_session.errors;
  std::fputs(checker::render_finding(f, repro_command()).c_str(), stderr);
  std::fflush(stderr);
  g_session.outside_findings.push_back(f);
  if (g_session.report_written && !options().report_file.empty()) {
    g_session.report.findings.push_back(std::move(f));
    write_report_file();
  }
}

// keep_files=DIR: the run's files, copied out of its view as it ends (runtime/isolation/kept_files.hpp).
// After the program's last writes that exit sees: its own exit handlers registered after
// bsp_begin, and the buffers of the files it left open.
void keep_files_of_run() {
  const ProgramOptions& o = options();
  if (o.keep_files.empty() || in_forked_child()) return;
  std::fflush(nullptr);
  keep_run_files(o.keep_files.c_str(), o.run.procs, o.run.seed);
}

// expect_output: the reference run's digest of each process's output (a kept trace of a
// schedule-divergence carries them, so that its replay and shrinking see the divergence).
void compare_with_expected_output(World& w) {
  const std::vector<std::uint64_t>& expected = options().run.expected_output;
  if (expected.size() != static_cast<std::size_t>(w.nprocs()) || !options().run.checks) return;
  if (w.expected_line_diverged()) return;  // reported where the differing line was written
  for (const Process& pr : w.processes()) {
    const std::uint64_t digest = pr.output.digest.value();
    if (digest == expected[static_cast<std::size_t>(pr.pid)]) continue;
    char digests[80];
    std::snprintf(digests, sizeof digests, "output digest %016llx, the reference's %016llx",
                  static_cast<unsigned long long>(digest),
                  static_cast<unsigned long long>(expected[static_cast<std::size_t>(pr.pid)]));
    Finding f;
    f.rule = rule_id(Rule::schedule_divergence);
    f.message = "process " + std::to_string(pr.pid) + " prints other output than in the reference run (" + digests +
                "): under this schedule the program's output differs (the location: its last BSPlib call)";
    f.processes = {pr.pid};
    f.superstep = w.superstep();
    f.locations = {w.diagnostics().location(pr.site, pr.pid, pr.call)};
    w.diagnostics().report(std::move(f));
    return;  // the first process that differs, as the driver's comparison names
  }
}

}  // namespace

// The run cannot go on (abort, fatal error, crash, timeout): show everything, report, exit.
[[noreturn]] void stop_program(int status) {
  if (World* w = g_session.world.get()) {
    const Process& me = w->self();
    if (g_file_watch_on) finish_watching_file(me.pid, w->superstep(), me.call, me.site.file, me.site.line);
    w->flush_trace();
    for (Process& pr : w->processes()) w->flush_partial_lines(pr);
    w->diagnostics().print_repeat_summary();
  }
  g_session.capture.reset();
  write_report(false);
  keep_files_of_run();
  std::fflush(nullptr);
  std::_Exit(status);
}

void at_exit() {
  if (in_forked_child()) return;  // a child the program forked: the run's report is its parent's
  if (g_session.world) {          // exit() during the SPMD part, by some process, or main returned
    World& w = *g_session.world;
    // Located where the program called exit (this handler's caller's caller: the first line of
    // the program in the stack), and at the process's last BSPlib call. When main returned, the
    // stack has no line of the program (exit's caller is the C library's start): at the last
    // call only.
    const std::uint32_t stack = g_session.exit_stack ? g_session.exit_stack : capture_current_stack();
    const bool called_exit = g_session.called_exit || (stack != 0 && symbolised_stack(stack).user >= 0);
    const std::string who = "process " + std::to_string(w.pid());
    w.report_event(Rule::superstep_mismatch,
                   called_exit ? who + " called exit() inside the SPMD part, before bsp_end"
                               : who +
                                     " returned from main (ending the program) inside the SPMD part, "
                                     "without calling bsp_end",
                   stack, location_event::exit);
    stop_program(1);
  }
  write_report(true);
  // After bsp_end: process 0 alone goes on.
  finish_watching_file(0, g_session.final_superstep, "bsp_end",
                       g_session.end_location.file.empty() ? nullptr : g_session.end_location.file.c_str(),
                       g_session.end_location.line);
  keep_files_of_run();
  if (g_session.outside_repeats > 0)
    std::fprintf(stderr, "bsp-check: the findings above outside bsp_begin/bsp_end were repeated %llu more time%s\n",
                 static_cast<unsigned long long>(g_session.outside_repeats), g_session.outside_repeats == 1 ? "" : "s");
  if (g_session.errors > 0 || g_session.outside_misuse) {
    std::fflush(nullptr);
    finish_served_run(options().exitcode);  // a worker of the fork server goes on to its next run
    std::_Exit(options().exitcode);
  }
}

}  // namespace program

using namespace program;

void end_program() {
  World& w = *g_session.world;
  g_session.end_location = w.diagnostics().location(w.self().site, 0, "bsp_end");
  g_session.final_superstep = w.superstep();
  // Process 0 goes on after bsp_end: a line it has not finished is shown as it is, and what it
  // writes next continues it, as in a separate process (the others' lines end with them).
  w.flush_partial_lines(w.self(), false);
  compare_with_expected_output(w);
  w.diagnostics().print_repeat_summary();
  g_session.errors += w.diagnostics().errors();
  g_session.capture.reset();
  write_report(true);
  if (options().timeout_seconds > 0) {
    itimerval t{};
    setitimer(ITIMER_REAL, &t, nullptr);
  }
  if (g_session.stack_rlimit_changed) {  // main goes on, and what it starts inherits the limit, as without bsp-check
    setrlimit(RLIMIT_STACK, &g_session.stack_rlimit_before);
    g_session.stack_rlimit_changed = false;
  }
  g_session.world.reset();
  g_session.restart_argv.clear();
}

}  // namespace bspcheck::rt

// exit() called by the program (the executable binds to the runtime library before the C
// library): noted, for at_exit's finding, and passed on. The C library's start calls its own exit
// when main returns, which does not come here.
extern "C" [[noreturn]] void exit(int status) {
  bspcheck::rt::program::g_session.called_exit = true;
  if (bspcheck::rt::program::g_session.world && !bspcheck::rt::in_forked_child())
    bspcheck::rt::program::g_session.exit_stack = bspcheck::rt::capture_current_stack();
  using Exit = void (*)(int);
  static const auto real = next_definition<Exit>("exit");
  real(status);
  __builtin_unreachable();
}
