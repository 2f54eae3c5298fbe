#include "tools/explore_command.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tools/cli_parse.hpp"
#include "tools/proc_list.hpp"
#include "tools/program_check.hpp"
#include "tools/run_command.hpp"
#include "tools/temp_files.hpp"
#include "tools/option_checks.hpp"

namespace bspcheck::cli {

namespace {

// A choice point the run was offered: its kind, how many options it had, and what it took.
struct Point {
  unsigned kind;
  unsigned n;
  unsigned value;
};

// A schedule to run: the values of the first choice points (the rest take the default).
struct Schedule {
  std::vector<unsigned> kinds, values;
  std::size_t deviations = 0;  // how many of them are not the default
  std::size_t next = 0;        // deviations are added at or after this choice point only
};

const char* kind_text(unsigned k) {
  switch (k) {
    case 2: return "message order";
    case 3: return "write order";
    case 4: return "hp timing";
    default: return "choice";
  }
}

}  // namespace

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
    // Depth-first over schedules; each is the prefix of a run that was seen, plus one deviation.
    std::vector<Schedule> todo{Schedule{}};
    while (!todo.empty()) {
      if (runs >= max_runs) {
        exhausted = false;
        break;
      }
      const Schedule s = std::move(todo.back());
      todo.pop_back();
      {
        std::ofstream out(script);
        for (std::size_t i = 0; i < s.values.size(); ++i) out << s.kinds[i] << ' ' << s.values[i] << '\n';
      }
      RunConfig run = c;
      run.guide_log = log;  // the log makes the run an exploring one
      const QuietRun q = run_quietly(run, pc.path, p, 1);
      ++runs;
      if (!quiet && runs % 20 == 0)
        std::fprintf(stderr, "\rbsp-check: explore: %zu schedules run...", runs);
      std::vector<Point> points;
      {
        std::ifstream in(log);
        for (Point pt; in >> pt.kind >> pt.n >> pt.value;) points.push_back(pt);
      }
      if (!q.passed) {
        if (!quiet) std::fputs("\r\033[K", stderr);
        RunConfig record = run;
        const std::string base = std::filesystem::path(c.program).filename().string();
        record.trace_file = (std::filesystem::path(trace_dir) / (base + "-p" + std::to_string(p) + "-explore.trace")).string();
        run_quietly(record, pc.path, p, 1);
        std::printf("bsp-check: explore: schedule %zu fails (p = %d, %zu non-default choice%s)%s%s\n", runs, p,
                    s.deviations, s.deviations == 1 ? "" : "s",
                    q.failing_rules.empty() ? "" : " with ", q.failing_rules.empty() ? "" : q.failing_rules.front().c_str());
        if (!q.reason.empty()) std::printf("  %s\n", q.reason.c_str());
        for (std::size_t i = 0; i < s.values.size(); ++i)
          if (i < points.size() && s.values[i] != points[i].n - 1)
            std::printf("  choice %zu: %s -> %u of %u\n", i + 1, kind_text(s.kinds[i]), s.values[i], points[i].n);
        std::printf("  trace: %s\n  replay: bsp-check replay %s\n", record.trace_file.c_str(),
                    shell_quote(record.trace_file).c_str());
        std::filesystem::remove_all(dir);
        return 1;
      }
      // Children: one more deviation at each later choice point that has alternatives.
      for (std::size_t i = points.size(); i-- > s.next;) {
        if (points[i].n < 2) continue;
        if (s.deviations >= bound) {
          exhausted = false;  // schedules beyond the bound exist
          break;
        }
        for (unsigned v = 0; v + 1 < points[i].n; ++v) {  // n - 1 is the default
          Schedule child;
          for (std::size_t k = 0; k < i; ++k) {
            child.kinds.push_back(points[k].kind);
            child.values.push_back(points[k].value);
          }
          child.kinds.push_back(points[i].kind);
          child.values.push_back(v);
          child.deviations = s.deviations + 1;
          child.next = i + 1;
          todo.push_back(std::move(child));
        }
      }
    }
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
