#include "tools/commands/debug_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "replay/trace_format.hpp"
#include "tools/launch/child_environment.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/commands/replay_command.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

std::string gdb_extension_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / BSPCHECK_GDB_INSTALL_DIR;
    if (std::filesystem::exists(installed / "bspcheck_gdb.py", ec)) return installed.string();
  }
  return BSPCHECK_GDB_SOURCE_DIR;
}

// Where the runtime library is: installed beside the driver (PREFIX/lib), or the build tree.
static std::string runtime_library_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / BSPCHECK_INSTALL_LIB_DIR;
    if (std::filesystem::exists(installed / "libbspcheck.so", ec)) return installed.string();
  }
  return BSPCHECK_BUILD_LIB_DIR;
}

int debug_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{
      "bsp-check debug: start gdb on the replay of TRACE, stopped where its first finding is raised,\n"
      "with the program's frame of the process at the finding selected and the finding printed.\n"
      "gdb then knows the BSP processes: info bsp, bsp process K, bsp break S [K], bsp next-sync,\n"
      "bsp restart-at S, bsp findings (docs/debugging.md). GDB OPTIONS (after --) are passed to gdb\n"
      "before the program: -batch, -ex COMMAND, ...; $BSPCHECK_GDB names another gdb.\n"
      "\nUsage: bsp-check debug [options] TRACE [-- GDB OPTIONS...]",
      "bsp-check debug"};
  std::string trace_path;
  std::vector<std::string> gdb_options;
  int finding = 1, superstep = -1, process = -1;
  app.add_option("TRACE", trace_path, "the trace (from --trace, or kept from a failing run)")->required();
  app.add_option("--finding", finding, "stop at the N-th finding instead of the first")
      ->check(CLI::Range(1, 1000000))
      ->type_name("N");
  app.add_option("--superstep", superstep, "stop where a process first runs in superstep S instead, not at a finding")
      ->check(CLI::Range(0, 1 << 30))
      ->type_name("S");
  app.add_option("--process", process, "with --superstep: where process K (rather than any) first runs in it")
      ->check(CLI::Range(0, 100000000))
      ->type_name("K");
  app.add_option("GDB_OPTIONS", gdb_options, "options for gdb (after --)");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  // Checked whole before gdb starts, as replay does: a damaged trace is refused with its reason.
  const std::optional<trace::Header> checked = trace_to_run_again(trace_path);
  if (!checked) return 2;
  const trace::Header& h = *checked;
  if (process >= 0 && superstep < 0) {
    std::cerr << "bsp-check: error: --process goes with --superstep\n";
    return 2;
  }
  RunConfig c;
  std::string error;
  if (!config_from_trace(h, trace_path, {}, c, error)) {
    std::cerr << "bsp-check: error: " << error << "\n";
    return 2;
  }
  c.options.run.replay_file = trace_path;
  c.version = version;

  // The replay's environment, as `bsp-check replay` gives its run, with no report file: the
  // program prints its findings itself. gdb passes its environment on to the program.
  ChildEnvironment env = run_environment(c);
  env.set("BSPCHECK_OPTIONS", runtime_options(c, c.procs.front(), c.seed));
  env.set("BSPCHECK_REPRO", "bsp-check debug " + trace_path);
  // LeakSanitizer stops the world with ptrace, which a process under gdb cannot: a program built
  // with ASan would report a failure of the leak check at its end instead of its leaks.
  env.prepend_options("ASAN_OPTIONS", "detect_leaks=0");

  const char* gdb_env = std::getenv("BSPCHECK_GDB");
  const std::string gdb = gdb_env && *gdb_env ? gdb_env : "gdb";
  const std::string load = "python import sys; sys.path.insert(0, '" + gdb_extension_dir() + "'); import bspcheck_gdb";
  // The auto-load script beside the runtime library (tools/gdb/CMakeLists.txt) may run too: it
  // imports the same module, which does nothing the second time; trusting its folder saves the
  // user gdb's warning that it declined it.
  std::vector<std::string> argv = {gdb,
                                   "-q",
                                   "-iex",
                                   "add-auto-load-safe-path " + runtime_library_dir(),
                                   "-iex",
                                   load,
                                   "-ex",
                                   superstep >= 0 ? "bsp run-to-superstep " + std::to_string(superstep) +
                                                        (process >= 0 ? " " + std::to_string(process) : "")
                                                  : "bsp run-to-finding " + std::to_string(finding)};
  argv.insert(argv.end(), gdb_options.begin(), gdb_options.end());
  argv.push_back("--args");
  argv.push_back(c.program);
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  std::vector<char*> pointers;
  for (std::string& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  std::cout.flush();
  execvpe(gdb.c_str(), pointers.data(), env.envp());
  std::cerr << "bsp-check: error: cannot start " << gdb << ": " << std::strerror(errno)
            << " (install gdb, or name it in BSPCHECK_GDB)\n";
  return 2;
}

}  // namespace bspcheck::cli
