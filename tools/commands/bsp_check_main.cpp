// bsp-check: the command-line driver.
//   bsp-check [run] [options] PROGRAM [ARGS...]
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bspcheck/rules.hpp"
#include "runtime/options/option_values.hpp"
#include "runtime/options/options.hpp"
#include "runtime/memory_checks/watchpoint_probe.hpp"
#include "checker/suppressions.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/launch/proc_list.hpp"
#include "tools/commands/replay_command.hpp"
#include "tools/commands/debug_command.hpp"
#include "tools/commands/run_command.hpp"
#include "tools/launch/run_launcher.hpp"
#include "tools/commands/show_command.hpp"
#include "tools/commands/explore_command.hpp"
#include "tools/commands/list_command.hpp"
#include "tools/commands/merge_command.hpp"
#include "tools/commands/stats_command.hpp"
#include "tools/launch/shard.hpp"
#include "tools/commands/shrink_command.hpp"

namespace {

constexpr const char* kVersion = "0.1.0";

// --seed: the options table's syntax (decimal, or 0x hex), within the session's range: the first
// seed of a session, whose seeds seed .. seed + seeds - 1 must not wrap.
CLI::Validator first_seed() {
  return CLI::Validator(
      // The runtime's own check: BSPCHECK_OPTIONS=seed=S allows the same and says the same.
      [](std::string& text) { return bspcheck::rt::option_value_error("seed", text); },
      "");  // no description: the help shows --seed SEED, not TEXT:SEED
}

void add_run_options(CLI::App& app, bspcheck::cli::RunConfig& c, std::string& procs, std::string& shard) {
  // The options of the table (runtime/options/options.def) that the driver takes its own way: -p takes a
  // list of process counts, --seed the first of --seeds seeds, --prefix any text (it reaches the
  // runs as BSPCHECK_PREFIX, so it may hold ':'). Every other flag of the table is registered
  // from its row (add_option_flags).
  const auto help = [](const char* key) { return std::string(bspcheck::rt::find_option(key)->help); };
  app.add_option("-p,--procs", procs, help("procs") + ": a number, range or list (1-4,8); each is run")
      ->default_str("1-4,8");
  app.add_option_function<std::string>(
         "--seed", [&c](const std::string& text) { c.seed = bspcheck::rt::SeedValue::parse("seed", text); },
         "the first of --seeds seeds; " + help("seed") + " (a whole number from 0 to " +
             std::to_string(bspcheck::cli::kMaxSeed) + ", or 0x hex)")
      ->default_str("1")
      ->check(first_seed())
      ->type_name("SEED");
  app.add_option("--prefix", c.prefix, help("prefix"));
  bspcheck::cli::add_option_flags(app, c.options, {"seed", "procs", "prefix"});
  app.add_option("--seeds", c.seeds, "number of seeds to run from --seed on (default 20, or 1 when --seed is given)")
      ->check(bspcheck::cli::whole_number(1, bspcheck::cli::kMaxSeeds));
  app.add_flag("--keep-going", c.keep_going, "do not stop at the first failing run");
  app.add_flag_callback("--check-determinism", [&c] { c.determinism_check = 2; },
                        "run every seed twice and compare the traces (uncontrolled-nondeterminism); by default "
                        "only the first run is checked");
  app.add_flag_callback("--no-determinism-check", [&c] { c.determinism_check = 0; },
                        "do not check that a seed reproduces its run");
  app.add_option("--shard", shard, "run only the I-th of N disjoint parts of the (p, seed) runs (0 <= I < N), for CI "
                                   "matrices and batch arrays; bsp-check merge joins their --json reports")
      ->type_name("I/N");
  app.add_option("--json", c.json_file, "write every run's findings to FILE as JSON")->check(bspcheck::cli::output_file())->type_name("FILE");
  app.add_option("-j,--jobs", c.jobs,
                 "runs at once, on worker threads with fork servers of their own (default: one per core); the output, "
                 "first failure and reports are those of a sequential session")
      ->check(bspcheck::cli::whole_number(1, 1024));
  // A callback, not CLI11's "--flag{false}" (whose {false} showed in --help).
  app.add_flag_callback("--no-fork-server", [&c] { c.fork_server = false; },
               "start the program anew for every run instead of forking runs from one start at bsp_begin");
  app.add_flag("--schedule-dependent-output", c.schedule_dependent_output,
               "do not compare each process's output across seeds (schedule-divergence): for programs whose "
               "output legitimately depends on the schedule");
  // --trace is the table's row, with the driver's file-name patterns (tools/launch/run_launcher.hpp).
  app.get_option("--trace")
      ->description(help("trace") + " (one -p and one seed; see docs/trace-format.md); with %p and %s in FILE (the "
                    "process count and the seed), every run into its own")
      ->type_name("FILE");
  app.add_option("--trace-dir", c.trace_dir, "where the trace of the first failing run is kept (default: .)")
      ->type_name("DIR");
  app.add_flag_callback("--no-keep-trace", [&c] { c.keep_trace = false; }, "do not record the first failing run's trace");
  app.add_flag("-v,--verbose", c.verbose, "show the output of every run, not only of failing ones");
  app.add_flag("-q,--quiet", c.quiet, "no progress or summary lines");
  app.add_option("--sarif", c.sarif_file, "write the distinct findings to FILE as SARIF 2.1.0 (code scanning)")
      ->check(bspcheck::cli::output_file())->type_name("FILE");
  app.add_option("--junit", c.junit_file, "write FILE as JUnit XML: one test case per run (CI test reports)")
      ->check(bspcheck::cli::output_file())->type_name("FILE");
  app.add_option("--source-root", c.source_root, "SARIF file names are relative to DIR (default: the working directory)")
      ->check(CLI::ExistingDirectory)->type_name("DIR");
  app.prefix_command();
}

}  // namespace

int main(int argc, char** argv) {
  // A run that does not read its input closes the pipe the driver feeds it through: a write to it
  // must be an EPIPE the driver handles, never a SIGPIPE that kills the driver with its reports
  // unwritten.
  bspcheck::cli::ignore_broken_pipes();
  // Commands are dispatched on the first word; `bsp-check ./prog` means `bsp-check run ./prog`.
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  if (!args.empty() && args[0] == "replay") return bspcheck::cli::replay_command(args, kVersion);
  if (!args.empty() && args[0] == "debug") return bspcheck::cli::debug_command(args, kVersion);
  if (!args.empty() && args[0] == "show") return bspcheck::cli::show_command(args);
  if (!args.empty() && args[0] == "shrink") return bspcheck::cli::shrink_command(args, kVersion);
  if (!args.empty() && args[0] == "explore") return bspcheck::cli::explore_command(args, kVersion);
  if (!args.empty() && args[0] == "merge") return bspcheck::cli::merge_command(args, kVersion);
  if (!args.empty() && args[0] == "stats") return bspcheck::cli::stats_command(args);
  if (!args.empty() && args[0] == "--list-rules") return bspcheck::cli::list_rules_command(args);
  if (!args.empty() && args[0] == "--list-options") return bspcheck::cli::list_options_command(args);
  if (!args.empty() && args[0] == "run") args.erase(args.begin());

  CLI::App app{
      "bsp-check: deterministic debugging and verification of BSPlib programs.\n"
      "Runs PROGRAM (built with bspcc, bspcxx or CMake's BSPCheck::bsp) with all its BSP processes as\n"
      "coroutines, under many seeded schedules and process counts, and reports misuse of BSPlib with\n"
      "the process, superstep and source line. Exit status: 0 clean, 1 a run failed, 2 bad usage.\n"
      "\nUsage: bsp-check [run] [options] [--] PROGRAM [ARGS...]\n"
      "       bsp-check replay|debug|shrink|show|explore|merge|stats ... (each has its own --help)\n"
      "\nCommands:\n"
      "  run      (the default) run PROGRAM under many seeds and process counts\n"
      "  replay   run a program again with the choices recorded in a trace\n"
      "  debug    gdb on the replay of a trace, stopped at its first finding, seeing every BSP process\n"
      "  shrink   reduce a failing trace to the scheduling choices that matter\n"
      "  show     a recorded run superstep by superstep, with its BSP cost\n"
      "  explore  search PROGRAM's schedules: all within a bound of the default one, or coverage-guided\n"
      "  merge    join the --json reports of sharded runs into one report of each format\n"
      "  stats    what the runs of --json reports covered and found, per strategy, rule and superstep\n"
      "A program linked with the runtime also runs directly: BSPCHECK_OPTIONS=seed=7:procs=4 ./prog\n"
      "The rule ids: bsp-check --list-rules [--json]; the keys of BSPCHECK_OPTIONS: bsp-check --list-options [--json]",
      "bsp-check"};
  // With the version, whether this machine's hardware watchpoints fire (runtime/memory_checks/watchpoint_probe.hpp):
  // the checks that need them are made only where they do, and CI logs say which it was.
  app.set_version_flag("--version", [] {
    return std::string("bsp-check ") + kVersion + "\nhardware watchpoints: " +
           bspcheck::rt::probe_watchpoints().describe();
  });
  bspcheck::cli::RunConfig config;
  config.seeds = 20;
  std::string procs = "1-4,8", shard;
  add_run_options(app, config, procs, shard);
  bool debug = false;
  app.add_flag("--debug", debug,
               "when a run fails, open its kept trace in gdb at the first finding, as bsp-check debug does");

  if (auto status = bspcheck::cli::parse_arguments(app, args)) return *status;
  std::vector<std::string> rest = app.remaining();
  if (auto status = bspcheck::cli::program_and_args(app, rest)) return *status;
  config.program = rest.front();
  config.args.assign(rest.begin() + 1, rest.end());
  try {
    config.procs = bspcheck::cli::parse_proc_list(procs);
  } catch (const std::invalid_argument& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return 2;
  }
  config.procs_text = procs;
  if (!shard.empty()) {
    std::string why;
    const auto s = bspcheck::cli::parse_shard(shard, why);
    if (!s) {
      std::cerr << "bsp-check: error: --shard: " << why << "\n";
      return 2;
    }
    config.shard_index = s->index;
    config.shard_count = s->count;
  }
  // pct's options apply to pct only: other strategies neither pass nor print them.
  if (config.options.run.strategy != bspcheck::Strategy::pct) {
    const bspcheck::Options defaults;
    config.options.run.pct_depth = defaults.pct_depth;
    config.options.run.pct_steps = defaults.pct_steps;
  }
  if (const std::string& file = config.options.run.suppressions_file; !file.empty()) {
    // Checked here, once, with the runtime's own parser: every run would fail the same way.
    try {
      bspcheck::checker::Suppressions::load(file);
    } catch (const std::exception& e) {
      std::cerr << "bsp-check: error: --suppressions " << e.what() << "\n";
      return 2;
    }
  }
  config.version = kVersion;
  config.command_line = "bsp-check";
  for (int i = 1; i < argc; ++i) config.command_line += std::string(" ") + bspcheck::cli::shell_quote(argv[i]);
  // `--seed S` alone reproduces one run (it is what every reproduce line says).
  if (app.count("--seeds") == 0) config.seeds = app.count("--seed") ? 1 : 20;
  if (config.seeds < 1) {
    std::cerr << "bsp-check: error: --seeds must be at least 1\n";
    return 2;
  }
  const std::string& trace_file = config.options.run.trace_file;
  if (!trace_file.empty() && config.procs.size() * config.seeds != 1 && !bspcheck::cli::is_trace_pattern(trace_file)) {
    std::cerr << "bsp-check: error: --trace records one run: give one -p and one --seed, or put %p and %s in "
                 "FILE for a trace per run (the first failing run of many keeps its trace anyway)\n";
    return 2;
  }
  // Checked before the first run: a typo should not cost a session, nor exit 1 as if a run failed.
  if (!trace_file.empty())
    if (std::string why =
            bspcheck::cli::why_not_writable(bspcheck::cli::trace_path(trace_file, config.procs.front(), config.seed));
        !why.empty()) {
      std::cerr << "bsp-check: error: --trace " << trace_file << ": cannot write the trace: " << why << "\n";
      return 2;
    }
  // A trace is kept in --trace-dir only when no --trace names its file (tools/cli/option_checks.hpp).
  if (const std::string why =
          bspcheck::cli::why_not_trace_dir(config.trace_dir, config.keep_trace && trace_file.empty());
      !why.empty()) {
    std::cerr << "bsp-check: error: " << why << "\n";
    return 2;
  }
  if (config.seed > bspcheck::cli::kMaxSeed - config.seeds) {
    std::cerr << "bsp-check: error: --seed " << config.seed << " with --seeds " << config.seeds
              << " runs past the largest seed " << bspcheck::cli::kMaxSeed << "\n";
    return 2;
  }
  std::string kept_trace;
  const int status = bspcheck::cli::run_command(config, &kept_trace);
  // --debug: the first failing run under gdb, through its kept trace (or the one --trace wrote).
  if (debug && status == 1) {
    if (kept_trace.empty() && config.procs.size() * config.seeds == 1 && !bspcheck::cli::is_trace_pattern(trace_file))
      kept_trace = trace_file;
    if (kept_trace.empty()) {
      std::cerr << "bsp-check: --debug: no trace of the failing run was kept (--no-keep-trace, or the run was stopped)\n";
      return status;
    }
    std::cerr << "bsp-check: --debug: bsp-check debug " << kept_trace << "\n";
    return bspcheck::cli::debug_command({"debug", kept_trace}, kVersion);
  }
  return status;
}
