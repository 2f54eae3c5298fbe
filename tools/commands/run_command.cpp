// run_command.cpp: `bsp-check run`: where the runs' files go (kept, compared across seeds, or
// copied back after a single run), around the session itself (tools/commands/run_session.hpp:
// the runs, their checks across seeds, the summary and the reports); and the quiet single run
// that shrink and explore make.
#include "tools/commands/run_command.hpp"

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "checker/finding_text.hpp"
#include "runtime/isolation/file_view.hpp"
#include "tools/across_runs/output_divergence.hpp"
#include "tools/commands/run_session.hpp"
#include "tools/launch/copy_back.hpp"
#include "tools/launch/interrupt.hpp"
#include "tools/launch/stdin_feed.hpp"
#include "tools/launch/temp_files.hpp"
#include "tools/launch/temp_janitor.hpp"

namespace bspcheck::cli {

// The run the user asked for (one p and one seed: a single run, or replay's) leaves its files where
// the user looks: it keeps them (in --keep-files DIR, else a temporary folder) and they are copied
// back once the session's checks of it are done (tools/launch/copy_back.hpp). Not where the runs
// share the real directories (the fallback): they wrote there already.
int run_command(const RunConfig& c, std::string* kept_trace) {
  start_temp_janitor();  // before any thread: the session's temporary files go if the driver is killed
  const char* file_view = std::getenv(rt::kFileViewEnvironment);
  if (file_view && std::strcmp(file_view, "refuse") == 0) return run_session(c, kept_trace, false);
  if (c.procs.size() * c.seeds != 1 || c.shard_count > 1) {
    // Many runs: each keeps its files in the session's folder, to be compared across seeds, when
    // outputs are compared and the user named no folder.
    if (!c.options.keep_files.empty() || !compare_outputs_wanted(c)) return run_session(c, kept_trace, false);
    RunConfig comparing = c;
    comparing.options.keep_files = temp_name("files");  // made by the first run that writes a file
    const int status = run_session(comparing, kept_trace, true);
    std::error_code ignored;
    std::filesystem::remove_all(comparing.options.keep_files, ignored);
    return status;
  }
  RunConfig keeping = c;
  std::string temporary;
  if (keeping.options.keep_files.empty()) {
    temporary = temp_name("files");  // made by the run if it writes a file
    keeping.options.keep_files = temporary;
  }
  const timespec since = file_clock_now();
  const int status = run_session(keeping, kept_trace, false);
  const std::string run = (std::filesystem::path(keeping.options.keep_files) /
                           ("p" + std::to_string(c.procs.front()) + "-s" + std::to_string(c.seed)))
                              .string();
  CopyBack back;
  if (!interrupted()) back = copy_back_run_files(run, since);
  std::error_code ignored;
  if (!back.conflicts.empty()) {
    std::fprintf(stderr, "bsp-check: note: %zu file%s changed since the run began, left as %s: ", back.conflicts.size(),
                 back.conflicts.size() == 1 ? "" : "s", back.conflicts.size() == 1 ? "it is" : "they are");
    for (std::size_t i = 0; i < back.conflicts.size(); ++i)
      std::fprintf(stderr, "%s%s", i ? ", " : "", back.conflicts[i].c_str());
    std::fprintf(stderr, "; the run's files are in %s/\n", run.c_str());
  } else if (!temporary.empty()) {
    std::filesystem::remove_all(temporary, ignored);
  }
  return status;
}

QuietRun run_quietly(const RunConfig& c, const std::string& path, int p, std::uint64_t seed) {
  static StdinFeed stdin_feed;  // shrink and explore: each run gets the same input
  QuietRun q;
  q.outcome = run_once(c, path, p, seed, stdin_feed, false);
  q.passed = q.outcome.passed;
  q.reason = q.outcome.reason;
  for (const Finding& f : q.outcome.report.findings)
    if (checker::finding_fails(f, c.options.run.werror)) q.failing_rules.push_back(f.rule);
  return q;
}

}  // namespace bspcheck::cli