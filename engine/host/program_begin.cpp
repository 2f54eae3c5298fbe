// program_begin.cpp: the start of a program linked with the runtime and started as usual (./prog,
// or by bsp-check run). Options come from BSPCHECK_OPTIONS; process 0 continues the thread that
// called bsp_begin and processes 1..p-1 run main again (or the function named in bsp_init).
#define BSPCHECK_NO_SITE_MACROS
#include "bsp.h"

#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/foreign_contexts.hpp"
#include "engine/host/entry_points.hpp"
#include "engine/host/program_end.hpp"
#include "engine/host/program_globals_notes.hpp"
#include "engine/host/program_report.hpp"
#include "engine/host/program_session.hpp"
#include "engine/host/program_signals.hpp"
#include "runtime/isolation/file_byte_watch.hpp"
#include "runtime/isolation/fork_server.hpp"
#include "runtime/isolation/libc_start_state.hpp"
#include "runtime/isolation/private_globals.hpp"
#include "runtime/isolation/sanitizer_shadow.hpp"
#include "runtime/executable/program_image.hpp"

extern char** environ;

namespace bspcheck::rt {

namespace program {

namespace {

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

// Once per OS process, before its first SPMD section: the crash handlers, the leak check and the
// fork server (whose children return here, each with its run's options), then the watch of a
// file's byte, from here on.
void start_first_section() {
  install_crash_handlers();
  arm_leak_check_at_exit();    // before the fork server's children: each inherits it
  serve_forks_if_requested();  // returns here in each child of a fork server, with its run's options
  g_session.opts_read = false;
  const ProgramOptions& o = options();
  if (!o.watch_file.empty()) start_file_watch(o.watch_file.c_str(), o.watch_byte);
  else if (!o.run.expected_file.name.empty())
    start_file_expectation(o.run.expected_file.name.c_str(), o.run.expected_file.offset, o.run.expected_file.state);
}

// A classic BSPlib program's second bsp_begin after bsp_end: refused, a finding outside the SPMD part.
void refuse_second_begin(const Site& site) {
  g_session.outside_misuse = true;
  report_outside_spmd(Finding{rule_id(Rule::api_misuse),
                              rule_severity(Rule::api_misuse),
                              std::string("a second bsp_begin after bsp_end") +
                                  (site.file ? std::string(" at ") + site.file + ":" + std::to_string(site.line) : "") +
                                  " (a BSPlib program has one bsp_begin/bsp_end pair; MulticoreBSP's may run "
                                  "several sections in a row: docs/dialects.md); the calls that follow are refused",
                              {0},
                              g_session.final_superstep,
                              {Location{site.file ? site.file : "", site.line, 0, "bsp_begin", {}, {}}}});
}

// Every process needs at least the touched page at the top of its stack and its bookkeeping
// (docs/performance.md, "Many processes": 2,000,000 processes of a ring measured about 4.8 KiB
// each). Refuse only what cannot fit, saying what would.
// Below 64 MiB the question is not asked (a system call in every run of a small program).
void refuse_more_processes_than_memory(int p) {
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
}

// What each process runs: the function named by bsp_init, or main again.
std::function<void()> spmd_body(int p) {
  if (g_session.spmd) {
    // The function named by the bsp_init before this bsp_begin: a later bsp_init (for a nested
    // section, inside this one) names another section's.
    return [spmd = g_session.spmd] { spmd(); };
  }
  using Main = int (*)(int, char**, char**);
  auto main_fn = reinterpret_cast<Main>(dlsym(RTLD_DEFAULT, "main"));
  if (!main_fn && p > 1) {
    std::fprintf(stderr,
                 "bsp-check: error: bsp_begin is called without bsp_init, so processes 1..p-1 must "
                 "restart main, but main is not exported; link with bspcc/bspcxx or add "
                 "-Wl,--export-dynamic-symbol=main\n");
    std::exit(2);
  }
  return [main_fn] {
    // Each process gets its own copy of argv: getopt and friends permute it.
    ProgramSession::RestartArgv& own =
        *g_session.restart_argv.emplace_back(std::make_unique<ProgramSession::RestartArgv>());
    own.args = g_session.arg_copy;
    for (std::string& a : own.args) own.argv.push_back(a.data());
    own.argv.push_back(nullptr);
    main_fn(static_cast<int>(own.args.size()), own.argv.data(), environ);
  };
}

// A trace (recorded, replayed or followed) covers the first SPMD section; the later ones run
// from the seed alone, which makes them the same again in a replay. The output digests the
// driver expects are those of all sections together: not one section's to compare.
Options section_options(const ProgramOptions& o, bool another_section) {
  Options run = o.run;
  if (another_section) {
    run.trace_file.clear();
    run.replay_file.clear();
    run.guide_file.clear();
    run.expected_output.clear();
    run.expected_line = {};
  }
  return run;
}

void create_world(const Options& run, int p, std::function<void()> body) {
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
}

// Each process's globals: its own copy (BSPlib's processes), or shared (MulticoreBSP's threads)
// with what a thread has of its own; and the watch of writes to what the processes share.
void give_processes_their_globals(World& w, const ProgramOptions& o, int p) {
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
}

// The world's reporting: its findings printed with the command that reproduces them, the report
// so far written as each is printed, the program stopped by a fatal one, and the report of the
// program's end at its exit.
void connect_reporting(World& w) {
  w.diagnostics().set_stream(w.real_out[1], repro_command());
  w.diagnostics().set_on_printed(&write_report_so_far);
  w.on_fatal_stop = [] { stop_program(1); };
  static bool registered = false;
  if (!registered) {
    std::atexit(&at_exit);
    registered = true;
  }
}

}  // namespace

}  // namespace program

using namespace program;

void begin_program(int maxprocs, const Site& site) {
  if (!g_session.report_written && !g_session.world) start_first_section();
  const ProgramOptions& o = options();
  // MulticoreBSP allows another SPMD section after bsp_end (its processes are threads that a
  // bsp_begin starts again); the classic BSPlib has one bsp_begin/bsp_end pair per program.
  const bool another_section = g_session.report_written && !g_session.world && sections_in_a_row(g_session.dialect);
  if (g_session.report_written && !another_section) return refuse_second_begin(site);
  int p = std::max(1, std::min(maxprocs, o.run.procs));
  refuse_more_processes_than_memory(p);
  std::function<void()> body = spmd_body(p);
  size_main_stack(o.run.stack_size);
  if (another_section) g_session.report_written = false;  // this section's report is still to write
  const Options run = section_options(o, another_section);
  ++g_session.section;
  create_world(run, p, std::move(body));
  World& w = *g_session.world;
  p = w.nprocs();  // fewer than asked when the schedule grants fewer (grant_fewer)
  g_session.capture = w.capture_output();
  give_processes_their_globals(w, o, p);
  connect_reporting(w);
  arm_timeout();
  g_session.begin_site = site;
  w.enter("bsp_begin", site);
  if (maxprocs < 1) w.report(Rule::api_misuse, "bsp_begin(" + std::to_string(maxprocs) + ") requests no processes");
  w.switch_point();
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
