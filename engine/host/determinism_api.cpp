// bspcheck::check_determinism (include/bspcheck/exploration.hpp): the determinism self-check of
// `bsp-check run` (tools/across_runs/determinism_check.hpp), in-process, for any test. As shuttle's
// UncontrolledNondeterminismCheck, the run's schedule is recorded and run again, and what the
// second run asks differently is named: the first run records a trace; the second replays it, so
// that the engine compares every call with the recorded one (a replay-divergence finding at the
// first different call, located); then each process's output is compared line by line.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "bspcheck/exploration.hpp"
#include "bspcheck/rules.hpp"
#include "checker/output_comparison.hpp"

namespace bspcheck {

namespace {

// A trace file of this process's own, removed when the check ends.
class ScratchTrace {
 public:
  ScratchTrace() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/bspcheck-determinism-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) {
      close(fd);
      path_ = pattern;
    }
  }
  ~ScratchTrace() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Finding nondeterminism(std::string message, std::vector<int> processes, int superstep,
                       std::vector<Location> locations) {
  Finding f;
  f.rule = rule_id(Rule::uncontrolled_nondeterminism);
  f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
  f.message = std::move(message);
  f.processes = std::move(processes);
  f.superstep = superstep;
  f.locations = std::move(locations);
  return f;
}

}  // namespace

DeterminismResult check_determinism(const Options& options, const std::function<void()>& spmd) {
  DeterminismResult result;
  ScratchTrace trace;
  if (trace.path().empty()) {
    result.error = "no temporary file for the trace (TMPDIR)";
    return result;
  }
  Options first_options = options;
  first_options.trace_file = trace.path();
  first_options.replay_file.clear();
  result.first = run(first_options, spmd);
  Options second_options = options;
  second_options.trace_file.clear();
  second_options.replay_file = trace.path();
  result.second = run(second_options, spmd);

  const std::string seed = "p = " + std::to_string(options.procs) + ", seed " + std::to_string(options.seed);
  for (const Finding& f : result.second.findings) {
    if (f.rule != rule_id(Rule::replay_divergence)) continue;
    result.finding = nondeterminism("two runs of the same schedule (" + seed + ") part: " + f.message +
                                        "; the program depends on something its seed does not give (the clock, "
                                        "an unseeded rand, addresses, uninitialised memory, files)",
                                    f.processes, f.superstep, f.locations);
    return result;
  }
  const std::size_t n = std::min(result.first.output.size(), result.second.output.size());
  for (std::size_t pid = 0; pid < n; ++pid) {
    const auto line = checker::first_line_difference(checker::output_lines(result.first.output[pid]),
                                                     checker::output_lines(result.second.output[pid]), "in its output",
                                                     "the first run", "the second");
    if (!line) continue;
    result.finding = nondeterminism("process " + std::to_string(pid) + " prints differently in two runs of the same " +
                                        "schedule (" + seed + "): " + *line,
                                    {static_cast<int>(pid)}, result.second.supersteps, {});
    return result;
  }
  return result;
}

}  // namespace bspcheck
