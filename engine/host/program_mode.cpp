// program_mode.cpp: a program linked with the runtime and started as usual (./prog, or by
// bsp-check run). Options come from BSPCHECK_OPTIONS; process 0 continues the thread that
// called bsp_begin and processes 1..p-1 run main again (or the function named in bsp_init).
// At the end a JSON report is written for the bsp-check driver, and the exit status becomes
// non-zero when errors were found, the way sanitizers do it.
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "checker/binary_report.hpp"
#include "checker/finding_codec.hpp"
#include "checker/finding_text.hpp"
#include "runtime/executable/backtrace.hpp"
#include "runtime/executable/call_stacks.hpp"
#include "runtime/executable/executable_symbols.hpp"
#include "runtime/isolation/libc_start_state.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/host/program_session.hpp"
#include "engine/core/foreign_contexts.hpp"
#include "runtime/isolation/file_byte_watch.hpp"
#include "runtime/isolation/file_view.hpp"
#include "runtime/isolation/fork_server.hpp"
#include "runtime/isolation/kept_files.hpp"
#include "runtime/isolation/process_snapshot.hpp"
#include "runtime/isolation/sanitizer_shadow.hpp"
#include "runtime/options/driver_environment.hpp"
#include "runtime/options/options.hpp"
#include "runtime/options/reproduce.hpp"
#include "runtime/base/shell_word.hpp"
#include "runtime/isolation/private_globals.hpp"
#include "runtime/executable/program_image.hpp"
#include "runtime/base/interpose.hpp"
#include "runtime/base/outside_files.hpp"

using bspcheck::rt::next_definition;

extern char** environ;

namespace bspcheck::rt {

namespace program {

constinit ProgramSession g_session;

// glibc passes (argc, argv, envp) to the constructors of shared objects: processes 1..p-1 of a
// bsp_begin-first program restart main with the same arguments.
namespace {
__attribute__((constructor)) void capture_arguments(int argc, char** argv, char**) {
  PrivateGlobals::set_main_arguments(argc, argv);
  for (int i = 0; i < argc; ++i) g_session.arg_copy.emplace_back(argv[i] ? argv[i] : "");
}
}  // namespace

const ProgramOptions& options() {
  if (!g_session.opts_read) {
    g_session.opts = program_options_from_environment();
    g_session.opts_read = true;
  }
  return g_session.opts;
}

std::string repro_command() {
  const ProgramOptions& o = options();
  if (!o.repro_command.empty()) return o.repro_command;
  return reproduce_environment_line(o, g_session.arg_copy);
}

}  // namespace program

using namespace program;

namespace {

void write_report_file() {
  // A fork server's worker: through the page it shares with the driver, in the binary form.
  if (delivers_reports() && deliver_report(checker::run_report_to_bytes(g_session.report))) return;
  // Program output and abort messages may hold any bytes: replace invalid UTF-8, never throw.
  const std::string text =
      checker::run_report_to_json(g_session.report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  const int fd = open_outside(options().report_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  for (std::size_t at = 0; fd >= 0 && at < text.size();) {
    const ssize_t k = write(fd, text.data() + at, text.size() - at);
    if (k <= 0) break;
    at += static_cast<std::size_t>(k);
  }
  if (fd >= 0) close(fd);
}

// The report of the sections so far (the run's findings, without those outside the SPMD part).
checker::RunReport sections_so_far(bool completed) {
  const ProgramOptions& o = options();
  checker::RunReport r = g_session.finished_sections;  // empty but for a second or later SPMD section
  r.seed = o.run.seed;
  r.procs_available = o.run.procs;
  r.completed = completed;
  if (World* w = g_session.world.get()) {
    r.nprocs = std::max(r.nprocs, w->nprocs());
    r.supersteps += w->completed_supersteps();
    r.aborted = w->aborted();
    r.abort_message = w->abort_message();
    r.switches += w->switches();
    // A process's output over the sections: each section's digest folded into the earlier ones'.
    for (const Process& pr : w->processes()) {
      const std::uint64_t digest = pr.output.digest.value();
      const auto pid = static_cast<std::size_t>(pr.pid);
      if (pid < r.output_hash.size())
        r.output_hash[pid] = (r.output_hash[pid] ^ digest) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
      else r.output_hash.push_back(digest);
    }
    if (g_session.section == 1) std::tie(r.trace_bytes, r.trace_calls) = w->trace_size();  // the trace's section
    const std::vector<CoverageTuple> reached = w->coverage();
    r.coverage.insert(r.coverage.end(), reached.begin(), reached.end());
    std::sort(r.coverage.begin(), r.coverage.end());
    r.coverage.erase(std::unique(r.coverage.begin(), r.coverage.end()), r.coverage.end());
    const std::vector<Finding>& found = w->diagnostics().findings();
    r.findings.insert(r.findings.end(), found.begin(), found.end());
    for (std::string& line : w->unchecked()) r.unchecked.push_back(std::move(line));
  }
  if (const char* why = file_view_refusal())
    r.unchecked.push_back(std::string("each run's own view of the files it writes (") + why +
                          "): runs see and change the real working directory and temporary directory");
  return r;
}

void write_report(bool completed) {
  if (g_session.report_written) return;
  g_session.report_written = true;
  if (options().report_file.empty()) {
    // Run directly, without the driver to say it: a check this run could not make.
    if (World* w = g_session.world.get())
      for (const std::string& line : w->unchecked())
        std::fprintf(stderr, "bsp-check: note: not checked: %s\n", line.c_str());
    return;
  }
  checker::RunReport r = sections_so_far(completed);
  if (g_session.world) g_session.finished_sections = r;
  r.findings.insert(r.findings.end(), g_session.outside_findings.begin(), g_session.outside_findings.end());
  g_session.report = std::move(r);
  write_report_file();
}

// A finding was printed during the run: the report so far (not completed), written now, so that
// a run killed from outside (SIGKILL, the out-of-memory killer) keeps in the JSON, SARIF and
// JUnit reports the findings it printed. Once per distinct finding, as they are printed; the
// report of the run's end replaces it (with the coverage, left out here).
// Written without an allocation whose size depends on what the findings say (their messages hold
// addresses): the program's heap, which a program that reads uninitialised memory sees, stays the
// same in a fork server's run and a plain one of the same seed. Hence a fixed-size buffer, a
// reused header, the binary form in either way the report travels, and the findings serialised
// where they are.
void write_report_so_far() {
  World* w = g_session.world.get();
  if (g_session.report_written || options().report_file.empty() || !w) return;
  static checker::RunReport head;  // its vectors keep their capacity from one finding to the next
  head.seed = options().run.seed;
  head.procs_available = options().run.procs;
  head.nprocs = std::max(g_session.finished_sections.nprocs, w->nprocs());
  head.supersteps = g_session.finished_sections.supersteps + w->completed_supersteps();
  head.switches = g_session.finished_sections.switches + w->switches();
  head.output_hash = g_session.finished_sections.output_hash;
  for (const Process& pr : w->processes()) {  // folded over the sections as sections_so_far does
    const std::uint64_t digest = pr.output.digest.value();
    const auto pid = static_cast<std::size_t>(pr.pid);
    if (pid < head.output_hash.size())
      head.output_hash[pid] = (head.output_hash[pid] ^ digest) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    else head.output_hash.push_back(digest);
  }
  if (g_session.section == 1) std::tie(head.trace_bytes, head.trace_calls) = w->trace_size();
  // Mapped, not allocated: the C library's malloc would serve it from the heap or from a mapping
  // depending on its history (its mmap threshold moves), which differs between the two ways.
  constexpr std::size_t kMaxBytes = std::size_t{1} << 20;  // beyond it, the end's report only
  void* m = mmap(nullptr, kMaxBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return;
  char* buf = static_cast<char*>(m);
  const std::size_t n = checker::run_report_to_buffer(
      head, {&g_session.finished_sections.findings, &w->diagnostics().findings(), &g_session.outside_findings}, buf,
      kMaxBytes);
  if (n > 0 && !(delivers_reports() && deliver_report(std::string_view(buf, n)))) {
    const int fd = open_outside(options().report_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    for (std::size_t at = 0; fd >= 0 && at < n;) {
      const ssize_t k = write(fd, buf + at, n - at);
      if (k <= 0) break;
      at += static_cast<std::size_t>(k);
    }
    if (fd >= 0) close(fd);
  }
  munmap(m, kMaxBytes);
}

// A finding outside the SPMD part (before bsp_begin, after bsp_end): printed now, and in the
// report, which is written again if bsp_end already wrote it, so that every report format the
// driver makes from it (JSON, SARIF, JUnit) has it.
// The same finding again (a primitive in a loop after bsp_end) is counted, not printed: at_exit
// says how many repeats there were.
void report_outside_spmd(Finding f) {
  static std::set<std::string> seen;
  if (!seen.insert(f.rule + '\n' + f.message).second) {
    ++g_session.outside_repeats;
    return;
  }
  std::fputs(checker::render_finding_outside_spmd(f, repro_command()).c_str(), stderr);
  std::fflush(stderr);
  g_session.outside_findings.push_back(f);
  if (g_session.report_written && !options().report_file.empty()) {
    g_session.report.findings.push_back(f);
    write_report_file();
  }
}

// bsp_init programs: the globals process 0 changed between bsp_init and bsp_begin, which
// processes 1..p-1 do not see (BSPlib 2.1 (4)) although under MulticoreBSP, whose processes are
// threads, they would. A note, not a finding: the program is correct if only process 0 uses them.
// The program's variable at `address` by its symbol, without "+offset"; "" for unnamed bytes and
// the C library's own copies (stdout, optind...: "name@GLIBC"), which are not the program's.
std::string program_variable(const ElfSymbols& symbols, std::uintptr_t address) {
  std::string name = symbols.name(address);
  if (const std::size_t plus = name.rfind('+'); plus != std::string::npos) name.resize(plus);
  return name.find('@') == std::string::npos ? name : std::string();
}

// Adds a variable's name to a note's list, once for the run of bytes it names.
void add_variable(std::vector<std::string>& names, std::string name) {
  if (!name.empty() && (names.empty() || names.back() != name)) names.push_back(std::move(name));
}

// "`a`, `b`, `c`, `d`, `e` and 3 more": a note's list of variables.
std::string variable_list(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t k = 0; k < names.size() && k < 5; ++k) list += (k ? ", `" : "`") + names[k] + "`";
  if (names.size() > 5) list += " and " + std::to_string(names.size() - 5) + " more";
  return list;
}

void note_globals_changed_after_init(std::FILE* out) {
  const ProgramImage& image = program_image();
  if (g_session.globals_at_init.size() != image.total) return;
  std::vector<std::string> names;
  std::shared_ptr<const ElfSymbols> symbols;
  std::size_t at = 0;
  for (const PrivateRange& r : image.ranges) {
    for (std::size_t i = 0; !r.thread_local_block && i < r.size; ++i) {
      i += equal_prefix_raw(r.lo + i, g_session.globals_at_init.data() + at + i,
                            r.size - i);  // (redzones: uninstrumented)
      if (i >= r.size) break;
      if (!symbols) symbols = executable_symbols();
      add_variable(names, program_variable(*symbols, reinterpret_cast<std::uintptr_t>(r.lo + i)));
    }
    at += r.size;
  }
  if (names.empty()) return;
  std::fprintf(out,
               "bsp-check: note: process 0 changed %s after bsp_init; processes 1..p-1 see the values of "
               "the bsp_init call, as with BSPonMPI or the Oxford toolset (under MulticoreBSP they would "
               "see the new ones): send such values if the other processes need them\n",
               variable_list(names).c_str());
}

// bsp_init programs: the globals main pointed at heap blocks before bsp_init, which every process
// then shares (PrivateGlobals::on_shared_heap_pointers). Against BSPlib 2.1 (6), which has bsp_init
// be main's first statement, but easy to write; under BSPonMPI each process would have its own
// block. A note: the program is correct if no process writes the block (or frees it).
void note_shared_heap_pointers(std::FILE* out, const std::vector<std::uintptr_t>& globals) {
  const std::shared_ptr<const ElfSymbols> symbols = executable_symbols();
  std::vector<std::string> names;
  for (std::uintptr_t a : globals) add_variable(names, program_variable(*symbols, a));
  if (names.empty()) return;
  std::fprintf(out,
               "bsp-check: note: main pointed %s at heap memory before bsp_init; every process starts with "
               "that pointer, so they share the memory here (under BSPonMPI or the Oxford toolset each would "
               "allocate its own): allocate it in the SPMD function, after bsp_begin\n",
               variable_list(names).c_str());
}

// The run cannot go on (abort, fatal error, crash, timeout): show everything, report, exit.
// The program called exit (the interposer at the end of this file), as opposed to returning from
// main, where the C library calls its own exit; and where, when it did so in the SPMD part (taken
// there: at_exit's stack would show the interposer between the C library's exit and the program).

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

// A program that never calls bsp_begin is one sequential process (BSPlib section 2.1: bsp_begin
// brackets the SPMD part; bsp_nprocs before it is allowed). It still reports at its exit, so that
// bsp-check run sees a run that completed (clean, or with the misuse of a primitive that needs
// bsp_begin) instead of a program that lost its report. The handler is registered by a dynamic
// initializer defined after this file's other globals: exit handlers run in reverse order, so it
// runs before their destructors, and after at_exit (registered by bsp_begin), which has then
// written the report already.
void report_at_exit_without_bsp_begin() {
  if (g_session.world || g_session.report_written || in_forked_child()) return;
  at_exit();
}
[[maybe_unused]] const bool g_reports_without_bsp_begin = std::atexit(&report_at_exit_without_bsp_begin) == 0;

// --- crash and timeout containment ------------------------------------------------------------

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (segmentation fault)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic exception)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (abort)";
    default:
      return "a signal";
  }
}

void on_crash(int sig, siginfo_t* info, void* uc) {
  const int fault_errno = errno;  // the program's, before this handler calls anything
  static volatile sig_atomic_t in_handler = 0;
  if (in_handler) std::_Exit(1);
  in_handler = 1;
  World* w = g_session.world.get();
  if (in_forked_child()) {  // a child the program forked dies as it would outside bsp-check
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  if (!w && g_session.report_written) {  // after bsp_end: still a finding of the run, in its report
    report_outside_spmd(Finding{rule_id(Rule::crash),
                                rule_severity(Rule::crash),
                                std::string("process 0 received ") + signal_name(sig) +
                                    " after bsp_end (the SPMD part had completed; its bsp_end is named)",
                                {0},
                                g_session.final_superstep,
                                {g_session.end_location}});
    std::fflush(nullptr);
    std::_Exit(1);
  }
  if (!w) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  std::FILE* err = w->real_out[1];
  const int pid = w->pid();
  std::string msg = "process " + std::to_string(pid) + " received " + signal_name(sig);
  bool overflow = false;
  for (const Process& pr : w->processes())
    if (pr.stack.in_guard(info->si_addr)) {
      overflow = true;
      msg = "process " + std::to_string(pr.pid) +
            " overflowed its stack (it hit the guard page); raise the stack size with "
            "--stack-size (BSPCHECK_OPTIONS=stack=SIZE), now " +
            std::to_string(pr.stack.size / 1024) + " KiB";
    }
  // Past the end of the running process's own stack: an unguarded stack that ran through the
  // stacks below it to its chunk's guard page, or process 0 at the main stack's limit.
  const auto sp = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RSP]);
  const Process& running = w->self();
  const auto base = reinterpret_cast<std::uintptr_t>(running.stack.base);
  const bool below_own = running.stack.base
                             ? sp < base + 256
                             : g_session.main_stack_low != 0 && sp < g_session.main_stack_low + 64 * 1024 &&
                                   sp + (8u << 20) > g_session.main_stack_low;
  if (!overflow && (sig == SIGSEGV || sig == SIGBUS) && below_own) {
    overflow = true;
    const std::size_t size = running.stack.base ? running.stack.size : g_session.main_stack_limit;
    msg = "process " + std::to_string(running.pid) + " overflowed its stack (" +
          (running.stack.base ? std::string("it ran past its end")
                              : std::string("the main thread's stack, at its limit")) +
          "); raise the stack size with --stack-size (BSPCHECK_OPTIONS=stack=SIZE), now " +
          std::to_string((size + 1023) / 1024) + " KiB" +  // (an unguarded stack is 64 bytes short: its canary's)
          (!running.stack.base && g_session.main_stack_capped
               ? std::string(" for process 0, capped by the hard stack limit (ulimit -Hs)")
               : std::string());
  }
  if (!overflow && (sig == SIGSEGV || sig == SIGBUS)) {
    char addr[32];
    std::snprintf(addr, sizeof addr, " at address %p", info->si_addr);
    msg += addr;
  }
  // A null pointer used while errno says an allocation failed (malloc sets ENOMEM, and nothing
  // has touched errno since): the process ran out of memory, located at the program's line.
  if (!overflow && sig == SIGSEGV && reinterpret_cast<std::uintptr_t>(info->si_addr) < 65536 && fault_errno == ENOMEM) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", info->si_addr);
    w->report(Rule::out_of_memory,
              "process " + std::to_string(pid) + " ran out of memory: it used a null pointer (address " + addr +
                  ") while errno was ENOMEM, so an allocation had failed, most likely the one that gave this "
                  "pointer (malloc, calloc and realloc return NULL when memory runs out) and the program did not "
                  "check it",
              {}, capture_interrupted_stack(), location_event::null_pointer_use);
    print_backtrace(err, 2);
    stop_program(1);
  }
  msg += "; its last BSPlib call was " + std::string(w->self().call);
  if (overflow) {  // located at the last call: an overflowed stack has no room left to unwind
    w->report(Rule::crash, msg);
    stop_program(1);
  }
  // Located at the program's line where the signal struck (its stack shown there, to main), and
  // at the last call. Without debug information, at the last call with the raw backtrace.
  if (!w->report_event(Rule::crash, msg, capture_interrupted_stack(), location_event::signal))
    print_backtrace(err, 2);  // not this handler
  stop_program(1);
}

// A signal whose default action ends the process (SIGTERM, SIGINT, SIGUSR1...), sent by the
// program to itself (raise, kill(getpid(), ...)): a crash of the running process, located at the
// line that sent it, as a separate process would have died there. One from elsewhere (a kill from
// outside, the kernel's alarm) dies as it would without bsp-check: it may have struck anywhere,
// even inside malloc, where this handler could not safely build a report.
void on_terminating_signal(int sig, siginfo_t* info, void* uc) {
  const bool self_sent = (info->si_code == SI_USER || info->si_code == SI_TKILL || info->si_code == SI_QUEUE) &&
                         info->si_pid == static_cast<pid_t>(syscall(SYS_getpid));
  if (!self_sent || !g_session.world || in_forked_child()) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  static volatile sig_atomic_t in_handler = 0;
  if (in_handler) std::_Exit(1);
  in_handler = 1;
  (void)uc;
  World* w = g_session.world.get();
  const char* abbrev = sigabbrev_np(sig);
  const char* what = strsignal(sig);
  std::string msg = "process " + std::to_string(w->pid()) + " sent itself SIG" +
                    (abbrev ? abbrev : std::to_string(sig)) + " (" + (what ? what : "a signal") +
                    ") with raise or kill, and nothing handles it: its default "
                    "action ends the process; its last BSPlib call was " +
                    w->self().call;
  if (!w->report_event(Rule::crash, msg, capture_interrupted_stack(), location_event::signal))
    print_backtrace(w->real_out[1], 2);
  stop_program(1);
}

// Signals whose default action ends the process, left at that default by the program when it
// reached bsp_begin (a handler or SIG_IGN it set is its own business). SIGALRM is the timeout's
// when one is set (arm_timeout, later).
void install_terminating_signal_handlers() {
  struct sigaction sa {};
  sa.sa_sigaction = &on_terminating_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
                  SIGTRAP, SIGSYS}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
      sigaction(sig, &sa, nullptr);
  }
}

// Where process pr was when the run timed out, and in which state (every process is named, in
// the structured reports too). A process that never ran is at the bsp_begin that starts them all.
Location timeout_location(World& w, const Process& pr) {
  const bool running = pr.pid == w.pid() && pr.state != ProcState::finished;
  if (!pr.begun && !running) {
    Location l = w.diagnostics().location(g_session.begin_site, pr.pid, "bsp_begin");
    l.state = pr.started ? "started, not yet through its bsp_begin" : "never ran (it starts at bsp_begin)";
    return l;
  }
  Location l = w.diagnostics().location(pr.site, pr.pid, pr.call);
  // The running process is named with the others not at the barrier whatever its state says:
  // the alarm may come while it runs the barrier itself (a single process syncing in a loop).
  switch (running ? ProcState::runnable : pr.state) {
    case ProcState::runnable:
      l.state = running ? "running, not at the barrier" : "not at the barrier";
      break;
    case ProcState::local_wait:  // a counting (cBSP) or lazy (BSPk) sync: it waits for its own condition
      l.state = std::string("waiting in ") + pr.call;
      break;
    case ProcState::in_sync:
      l.state = "waiting in bsp_sync";
      break;
    case ProcState::in_end:
    case ProcState::finished:
      l.state = "reached bsp_end";
      break;
  }
  return l;
}

void on_timeout(int) {
  World* w = g_session.world.get();
  if (!w) std::_Exit(1);
  // The limit is on the whole run, from bsp_begin: every process is located with its state; the
  // finding's processes are those that had not reached the barrier.
  Finding f;
  f.rule = rule_id(Rule::timeout);
  std::string stuck, waiting, waiting_own, ended;
  auto add = [](std::string& list, int pid) { list += (list.empty() ? "" : ", ") + std::to_string(pid); };
  for (const Process& pr : w->processes()) {
    Location l = timeout_location(*w, pr);
    if (l.state == "waiting in bsp_sync") add(waiting, pr.pid);
    else if (l.state.rfind("waiting in ", 0) == 0) add(waiting_own, pr.pid);
    else if (l.state == "reached bsp_end") add(ended, pr.pid);
    else {
      add(stuck, pr.pid);
      f.processes.push_back(pr.pid);
    }
    f.locations.push_back(std::move(l));
  }
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", options().timeout_seconds);
  f.message = "the run did not finish within its time limit of " + std::string(limit) +
              " s (--timeout, counted from bsp_begin); in superstep " + std::to_string(w->superstep()) +
              ", process(es) " + stuck + " had not reached their next bsp_sync (process " + std::to_string(w->pid()) +
              " was running)";
  if (!waiting.empty()) f.message += "; process(es) " + waiting + " waited in bsp_sync";
  if (!waiting_own.empty())
    f.message += "; process(es) " + waiting_own + " waited in a counting or lazy sync for their own condition";
  if (!ended.empty()) f.message += "; process(es) " + ended + " had reached bsp_end";
  f.message += w->timeout_hazard();
  f.message += "; each process is located with its state";
  f.superstep = w->superstep();
  w->diagnostics().report(std::move(f));
  stop_program(1);
}

// The crash handlers and their signal stack, once per OS process: before the fork server's
// snapshot moment, so that a worker's runs inherit them instead of paying 13 system calls each
// (installed, then set back by the restore). Until a run starts they act as the defaults do
// (on_crash re-raises when there is no world).
void install_crash_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  // Mapped, not allocated, so that its pages are touched only by a crash (a zero-filled vector
  // cost every forked run 64 KiB of page faults); between guard pages, which keep it a mapping of
  // its own that a snapshot can leave unsaved (its bytes matter only during a crash).
  // 1 MiB: a crash's report, its stacks symbolised and the run's kept files copied (a 4 KiB
  // directory buffer per level) take more than 64 KiB under AddressSanitizer, whose frames carry
  // redzones, and a frame larger than the guard page would step over it. Untouched pages cost
  // nothing.
  constexpr std::size_t kAltStack = 1 << 20;
  const std::size_t page = StackPool::page_size();
  void* m = mmap(nullptr, kAltStack + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m != MAP_FAILED) {
    char* alt = static_cast<char*>(m) + page;
    if (mprotect(alt, kAltStack, PROT_READ | PROT_WRITE) == 0) {
      ProcessSnapshot::leave_unsaved(alt, kAltStack);
      stack_t ss{};
      ss.ss_sp = alt;
      ss.ss_size = kAltStack;
      sigaltstack(&ss, nullptr);
    }
  }
  struct sigaction sa {};
  sa.sa_sigaction = &on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  install_terminating_signal_handlers();
}

// The run's time limit (--timeout), from bsp_begin.
void arm_timeout() {
  if (options().timeout_seconds <= 0) return;
  struct sigaction ta {};
  ta.sa_handler = &on_timeout;
  ta.sa_flags = SA_ONSTACK;
  sigaction(SIGALRM, &ta, nullptr);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(options().timeout_seconds);
  t.it_value.tv_usec = static_cast<suseconds_t>((options().timeout_seconds - t.it_value.tv_sec) * 1e6);
  setitimer(ITIMER_REAL, &t, nullptr);
}

// What a trace says of the program (engine/core/traced_schedule.hpp): the World asks when it
// records or replays.
ProgramIdentity program_identity() {
  ProgramIdentity id;
  std::string& program = id.program;
  std::vector<std::string>& args = id.args;
  if (active_launch() || g_session.arg_copy.empty()) return id;
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  program = n > 0 ? std::string(path, static_cast<std::size_t>(n)) : g_session.arg_copy[0];
  args.assign(g_session.arg_copy.begin() + 1, g_session.arg_copy.end());
  // FNV-1a over the program file and the arguments: a replay of another build is flagged. The
  // trace stores it, so it keeps the basis of trace format version 1 (runtime/base/hash.hpp).
  Fnv1a64 h(kFnv1a64LegacyBasis);
  std::ifstream exe(program, std::ios::binary);
  char buf[1 << 16];
  while (exe.read(buf, sizeof buf) || exe.gcount() > 0) h.add(buf, static_cast<std::size_t>(exe.gcount()));
  for (const std::string& a : args) h.add(a.c_str(), a.size() + 1);
  id.digest = h.value();
  return id;
}

}  // namespace

void begin_in_dialect(Dialect d) { g_session.dialect = d; }
Dialect program_dialect() { return g_session.dialect; }

int available_processors() {
  if (Launch* l = active_launch()) return l->options.procs;
  return options().run.procs;
}

void misuse_outside_spmd(const char* call, const Site& site) {
  std::string where = site.file ? std::string(" at ") + site.file + ":" + std::to_string(site.line) : "";
  Location loc{site.file ? site.file : "", site.line, 0, call, {}, {}};
  if (Launch* l = active_launch()) {
    std::string msg = std::string(call) + " called outside bsp_begin/bsp_end" + where;
    l->findings.push_back(Finding{rule_id(Rule::api_misuse), rule_severity(Rule::api_misuse), msg, {0}, 0, {loc}});
    return;
  }
  std::string msg =
      std::string(call) + (g_session.report_written ? " called after bsp_end" : " called before bsp_begin") + where;
  g_session.outside_misuse = true;
  report_outside_spmd(Finding{rule_id(Rule::api_misuse),
                              rule_severity(Rule::api_misuse),
                              msg,
                              {0},
                              g_session.report_written ? g_session.final_superstep : 0,
                              {loc}});
}

void abort_outside_spmd(const char* message, const Site& site) {
  const bool after = g_session.report_written;
  std::string text = message;
  while (!text.empty() && text.back() == '\n') text.pop_back();  // a format's own newline
  Finding f{rule_id(Rule::abort),
            rule_severity(Rule::abort),
            std::string("process 0 called bsp_abort ") + (after ? "after bsp_end" : "before bsp_begin") + ": " + text,
            {0},
            after ? g_session.final_superstep : 0,
            {Location{site.file ? site.file : "", site.line, 0, "bsp_abort", {}, {}}}};
  if (Launch* l = active_launch()) {
    l->findings.push_back(std::move(f));
    return;
  }
  report_outside_spmd(f);
  if (!after && !in_forked_child()) write_report(false);  // the caller ends the program at once
}

// Process 0 continues the thread that called bsp_begin. On the main thread its stack grows up to
// RLIMIT_STACK (8 MiB by default), not --stack-size: the soft limit is raised (up to the hard
// one) so that process 0 has at least --stack-size from here, as every other process has from its
// start. A size other than the default is a size to check against (the small stacks of a
// target), so the limit is lowered to it too: process 0 then overflows where the others do. With
// the default, a larger limit is kept (a program whose process 0 alone needs more runs as it did).
// Above the hard limit nothing can be done: main's frame, which process 0 goes on in, is on that
// stack, and only a privileged process may raise the hard limit. The limit is set back at
// bsp_end. Where the stack may end is kept for the crash handler, to name an overflow of process 0.
extern "C" void* __libc_stack_end;  // glibc: the top of the main thread's stack, near enough
void size_main_stack(std::size_t stack_size) {
  if (syscall(SYS_getpid) != syscall(SYS_gettid)) return;  // not the main thread
  rlimit rl{};
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
  char here;
  const auto top = reinterpret_cast<std::uintptr_t>(__libc_stack_end);
  const auto sp = reinterpret_cast<std::uintptr_t>(&here);
  if (sp >= top) return;
  const rlim_t wanted = static_cast<rlim_t>(top - sp + stack_size + (64u << 10));  // + argv, environment
  const bool exact = stack_size != Options{}.stack_size;
  if (wanted > rl.rlim_cur || (exact && wanted < rl.rlim_cur)) {
    g_session.stack_rlimit_before = rl;
    g_session.stack_rlimit_changed = true;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, rl.rlim_max);
    setrlimit(RLIMIT_STACK, &rl);
    g_session.main_stack_capped = rl.rlim_cur < wanted;
  }
  g_session.main_stack_limit = static_cast<std::size_t>(rl.rlim_cur);
  g_session.main_stack_low = top > rl.rlim_cur ? top - rl.rlim_cur : 0;
}

void begin_program(int maxprocs, const Site& site) {
  if (!g_session.report_written && !g_session.world) {
    install_crash_handlers();
    arm_leak_check_at_exit();    // before the fork server's children: each inherits it
    serve_forks_if_requested();  // returns here in each child of a fork server, with its run's options
    g_session.opts_read = false;
  }
  const ProgramOptions& o = options();
  if (!g_session.report_written && !g_session.world) {  // the first section: a file's byte watched from here on
    if (!o.watch_file.empty()) start_file_watch(o.watch_file.c_str(), o.watch_byte);
    else if (!o.run.expected_file.name.empty())
      start_file_expectation(o.run.expected_file.name.c_str(), o.run.expected_file.offset, o.run.expected_file.state);
  }
  // MulticoreBSP allows another SPMD section after bsp_end (its processes are threads that a
  // bsp_begin starts again); the classic BSPlib has one bsp_begin/bsp_end pair per program.
  const bool another_section = g_session.report_written && !g_session.world && sections_in_a_row(g_session.dialect);
  if (g_session.report_written && !another_section) {
    g_session.outside_misuse = true;
    report_outside_spmd(
        Finding{rule_id(Rule::api_misuse),
                rule_severity(Rule::api_misuse),
                std::string("a second bsp_begin after bsp_end") +
                    (site.file ? std::string(" at ") + site.file + ":" + std::to_string(site.line) : "") +
                    " (a BSPlib program has one bsp_begin/bsp_end pair; MulticoreBSP's may run "
                    "several sections in a row: docs/dialects.md); the calls that follow are refused",
                {0},
                g_session.final_superstep,
                {Location{site.file ? site.file : "", site.line, 0, "bsp_begin", {}, {}}}});
    return;
  }
  int p = std::max(1, std::min(maxprocs, o.run.procs));
  // Every process needs at least the touched page at the top of its stack and its bookkeeping
  // (docs/performance.md, "Many processes": 2,000,000 processes of a ring measured about 4.8 KiB
  // each). Refuse only what cannot fit, saying what would.
  // Below 64 MiB the question is not asked (a system call in every run of a small program).
  const double per_process = static_cast<double>(StackPool::page_size()) + sizeof(Process) + 256;
  struct sysinfo si {};
  if (p * per_process > static_cast<double>(64u << 20) && sysinfo(&si) == 0) {
    const double avail = static_cast<double>(si.freeram + si.bufferram) * si.mem_unit;
    if (p * per_process > avail) {
      std::fprintf(stderr,
                   "bsp-check: error: p = %d processes need at least %.1f GiB, more than the %.1f GiB of "
                   "memory available; at most about %.0f processes fit\n",
                   p, p * per_process / (1 << 30), avail / (1 << 30), avail / per_process);
      std::exit(2);
    }
  }
  std::function<void()> body;
  if (g_session.spmd) {
    // The function named by the bsp_init before this bsp_begin: a later bsp_init (for a nested
    // section, inside this one) names another section's.
    body = [spmd = g_session.spmd] { spmd(); };
  } else {
    using Main = int (*)(int, char**, char**);
    auto main_fn = reinterpret_cast<Main>(dlsym(RTLD_DEFAULT, "main"));
    if (!main_fn && p > 1) {
      std::fprintf(stderr,
                   "bsp-check: error: bsp_begin is called without bsp_init, so processes 1..p-1 must "
                   "restart main, but main is not exported; link with bspcc/bspcxx or add "
                   "-Wl,--export-dynamic-symbol=main\n");
      std::exit(2);
    }
    body = [main_fn] {
      // Each process gets its own copy of argv: getopt and friends permute it.
      std::vector<std::string> args = g_session.arg_copy;
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      main_fn(static_cast<int>(args.size()), argv.data(), environ);
    };
  }
  size_main_stack(o.run.stack_size);
  // A trace (recorded, replayed or followed) covers the first SPMD section; the later ones run
  // from the seed alone, which makes them the same again in a replay. The output digests the
  // driver expects are those of all sections together: not one section's to compare.
  Options run = o.run;
  if (another_section) {
    g_session.report_written = false;
    run.trace_file.clear();
    run.replay_file.clear();
    run.guide_file.clear();
    run.expected_output.clear();
    run.expected_line = {};
  }
  ++g_session.section;
  try {
    g_session.world =
        std::make_unique<World>(run, World::Mode::program, p, std::move(body), nullptr, &program_identity);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bsp-check: error: cannot allocate the stacks of %d processes\n", p);
    std::exit(2);
  } catch (const std::runtime_error& e) {  // e.g. an unreadable suppressions file
    std::fprintf(stderr, "bsp-check: error: %s\n", e.what());
    std::exit(2);
  }
  World& w = *g_session.world;
  p = w.nprocs();  // fewer than asked when the schedule grants fewer (grant_fewer)
  g_session.capture = w.capture_output();
  const bool private_globals = o.private_globals(shares_globals(g_session.dialect));
  if (g_session.spmd && private_globals && p > 1) note_globals_changed_after_init(w.real_out[1]);
  if (private_globals && p > 1 && program_image().total > 0) {
    auto globals =
        std::make_unique<PrivateGlobals>(program_image(), p, true, g_session.globals_at_init, o.globals_remap_at);
    globals->on_shared_heap_pointers(
        [out = w.real_out[1]](const std::vector<std::uintptr_t>& at) { note_shared_heap_pointers(out, at); });
    w.set_private_globals(std::move(globals), [] { g_session.capture->install_in_running_process(); });
  } else if (p > 1) {
    // Shared globals (MulticoreBSP's threads): each process still has what a thread has.
    w.set_private_globals(std::make_unique<PrivateGlobals>(thread_local_image(), p, false, thread_local_image().initial,
                                                           o.globals_remap_at, PrivateGlobals::Scope::thread),
                          nullptr);
  }
  if (p > 1 && o.run.checks)
    w.set_shared_write_watch(SharedWriteWatch::create(!private_globals || program_image().total == 0, w.real_out[1]));
  w.diagnostics().set_stream(w.real_out[1], repro_command());
  w.diagnostics().set_on_printed(&write_report_so_far);
  w.on_fatal_stop = [] { stop_program(1); };
  static bool registered = false;
  if (!registered) {
    std::atexit(&at_exit);
    registered = true;
  }
  arm_timeout();
  g_session.begin_site = site;
  w.enter("bsp_begin", site);
  if (maxprocs < 1) w.report(Rule::api_misuse, "bsp_begin(" + std::to_string(maxprocs) + ") requests no processes");
  w.switch_point();
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
}

}  // namespace bspcheck::rt

extern "C" void bsp_init(void (*spmd_part)(void), int argc, char* argv[]) {
  (void)argc;
  (void)argv;
  bspcheck::rt::program::g_session.spmd = spmd_part;
  // Processes 1..p-1 run the constructors themselves and then take from these values what main
  // set before bsp_init, as under a BSPlib whose processes all ran main up to bsp_init
  // (PrivateGlobals::take_what_main_set, docs/semantics.md).
  bspcheck::rt::program::g_session.globals_at_init = bspcheck::rt::snapshot_ranges(bspcheck::rt::program_image());
  bspcheck::rt::take_libc_start_state();  // and what main made of the C library's state
}

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
