// program_session.cpp: the one ProgramSession of a program linked with the runtime, what fills it
// before main (main's arguments), and the options it reads from BSPCHECK_OPTIONS. The exit handler
// of a program that never calls bsp_begin is registered here, after the session: exit handlers
// run in reverse order, so it runs before the session's destructor.
#include "engine/host/program_session.hpp"

#include <cstdlib>
#include <string>

#include "engine/core/foreign_contexts.hpp"
#include "engine/host/program_end.hpp"
#include "runtime/isolation/private_globals.hpp"
#include "runtime/options/driver_environment.hpp"
#include "runtime/options/reproduce.hpp"

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

namespace {

// A program that never calls bsp_begin is one sequential process (BSPlib section 2.1: bsp_begin
// brackets the SPMD part; bsp_nprocs before it is allowed). It still reports at its exit, so that
// bsp-check run sees a run that completed (clean, or with the misuse of a primitive that needs
// bsp_begin) instead of a program that lost its report. The handler is registered by a dynamic
// initializer defined after g_session: exit handlers run in reverse order, so it runs before the
// session's destructor, and after at_exit (registered by bsp_begin), which has then written the
// report already.
void report_at_exit_without_bsp_begin() {
  if (g_session.world || g_session.report_written || in_forked_child()) return;
  at_exit();
}
[[maybe_unused]] const bool g_reports_without_bsp_begin = std::atexit(&report_at_exit_without_bsp_begin) == 0;

}  // namespace

}  // namespace program

void begin_in_dialect(Dialect d) { program::g_session.dialect = d; }
Dialect program_dialect() { return program::g_session.dialect; }

}  // namespace bspcheck::rt
