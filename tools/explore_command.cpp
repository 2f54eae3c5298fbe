#include "tools/explore_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "replay/bounded_search.hpp"
#include "tools/cli_parse.hpp"
#include "tools/proc_list.hpp"
#include "tools/program_check.hpp"
#include "tools/run_command.hpp"
#include "tools/temp_files.hpp"
#include "tools/option_checks.hpp"

namespace bspcheck::cli {

int explore_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{"bsp-check explore: run PROGRAM under every schedule that differs from the default one in at most\n"
               "K choices (--bound), counting only choices that can change what the program sees: the order\n"
               "of messages that differ, the order of overlapping writes of different data, and when\n"
               "unbuffered operations take effect. Stops at the first failing schedule and keeps its trace.\n"
               "\nUsage: bsp-check explore [options] PROGRAM [ARGS...]",
               "bsp-check explore"};
  std::size_t bound = 2, max_runs = 2000;
  std::string procs = "4", trace_dir = ".";
  bool quiet = false;
  app.add_option("--bound", bound, "at most this many non-default choices per schedule (default 2)")
      ->check(whole_number(0, 1000));
  app.add_option("-p,--procs", procs, "processors available: a number, range or list; each is explored (default 4)");
  app.add_option("--max-runs", max_runs, "stop after this many schedules (default 2000)")
      ->check(whole_number(1, 100000000));
  app.add_option("--trace-dir", trace_dir, "where the failing schedule's trace is kept (default: .)");
  app.add_flag("-q,--quiet", quiet, "no progress lines");
  app.prefix_command();
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  quiet = quiet || !isatty(STDERR_FILENO);  // progress lines only on a terminal
  std::vector<std::string> program = app.remaining();
  if (auto status = program_and_args(app, program)) return *status;
  RunConfig c;
  c.program = program.front();
  c.args.assign(program.begin() + 1, program.end());
  c.version = version;
  c.keep_trace = false;
  try {
    c.procs = parse_proc_list(procs);
  } catch (const std::invalid_argument& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return 2;
  }
  const ProgramCheck pc = check_program(c.program);
  if (!pc.error.empty()) {
    std::cerr << "bsp-check: error: " << pc.error << "\n";
    return 2;
  }
  std::string dir_template = temp_template("explore");
  if (!mkdtemp(dir_template.data())) {
    std::perror("bsp-check: mkdtemp");
    return 2;
  }
  const std::string dir = dir_template;
  const std::string script = dir + "/script", log = dir + "/log";
  c.guide_file = script;

  std::size_t runs = 0;
  bool exhausted = true;
  for (int p : c.procs) {
    trace::BoundedSearch search(bound);  // replay/bounded_search.hpp
    while (const auto s = search.next()) {
      if (runs >= max_runs) {
        exhausted = false;
        break;
      }
      trace::BoundedSearch::write_script(script, *s);
      RunConfig run = c;
      run.guide_log = log;  // the log makes the run an exploring one
      const QuietRun q = run_quietly(run, pc.path, p, 1);
      ++runs;
      if (!quiet && runs % 20 == 0)
        std::fprintf(stderr, "\rbsp-check: explore: %zu schedules run...", runs);
      const std::vector<trace::OfferedChoice> offered = trace::read_choice_log(log);
      if (!q.passed) {
        if (!quiet) std::fputs("\r\033[K", stderr);
        RunConfig record = run;
        const std::string base = std::filesystem::path(c.program).filename().string();
        record.trace_file = (std::filesystem::path(trace_dir) / (base + "-p" + std::to_string(p) + "-explore.trace")).string();
        run_quietly(record, pc.path, p, 1);
        std::printf("bsp-check: explore: schedule %zu fails (p = %d, %zu non-default choice%s)%s%s\n", runs, p,
                    s->deviations, s->deviations == 1 ? "" : "s",
                    q.failing_rules.empty() ? "" : " with ", q.failing_rules.empty() ? "" : q.failing_rules.front().c_str());
        if (!q.reason.empty()) std::printf("  %s\n", q.reason.c_str());
        for (const std::string& line : trace::BoundedSearch::describe(*s, offered)) std::printf("  %s\n", line.c_str());
        std::printf("  trace: %s\n  replay: bsp-check replay %s\n", record.trace_file.c_str(),
                    shell_quote(record.trace_file).c_str());
        std::filesystem::remove_all(dir);
        return 1;
      }
      search.ran(*s, offered);
    }
    if (!search.exhaustive()) exhausted = false;
    if (runs >= max_runs) break;
  }
  if (!quiet) std::fputs("\r\033[K", stderr);
  std::filesystem::remove_all(dir);
  std::printf("bsp-check: explore: %zu distinct schedules, none fails (p = %s, bound %zu); the space %s\n", runs,
              procs.c_str(), bound,
              exhausted ? "was exhausted: every schedule that can differ was run"
                        : (runs >= max_runs ? "was not exhausted (stopped at --max-runs)"
                                            : "was not exhausted: schedules with more deviations exist (raise --bound)"));
  return 0;
}

}  // namespace bspcheck::cli
