// The in-process searches of include/bspcheck/exploration.hpp: bounded search, coverage-guided
// search and shrinking (replay/bounded_search.hpp, replay/coverage_search.hpp, replay/shrink.hpp)
// over runs of an SPMD function, each run steered by its script in memory (GuideInMemory) and
// read back from the list of choices it was offered. As `bsp-check explore` does, each schedule's
// output is compared with the default schedule's (checker/output_comparison.hpp).
#include "bspcheck/exploration.hpp"

#include <algorithm>

#include "bspcheck/rules.hpp"
#include "checker/finding_text.hpp"
#include "checker/output_comparison.hpp"
#include "engine/host/entry_points.hpp"
#include "replay/bounded_search.hpp"
#include "replay/choice_script.hpp"
#include "replay/coverage_search.hpp"
#include "replay/shrink.hpp"
#include "replay/trace_format.hpp"
#include "runtime/base/hash.hpp"

namespace bspcheck {

namespace {

// The rule a failing run is kept failing with: its first finding that fails it.
std::string failing_rule(const RunResult& r) {
  for (const Finding& f : r.findings)
    if (checker::finding_fails(f, r.werror)) return f.rule;
  return "";
}

bool fails_with(const RunResult& r, const std::string& rule) {
  if (r.ok()) return false;
  if (rule.empty()) return true;
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.rule == rule; });
}

// The runs of one search: each schedule is run with its script, what it was offered comes back,
// and its output is compared with the default schedule's (the search's first run), as `bsp-check
// explore` compares them.
class Search {
 public:
  explicit Search(const Options& options) : options_(options) {
    options_.trace_file.clear();
    options_.replay_file.clear();
    options_.guide_file.clear();
    options_.guide_log.clear();
    compare_ = checker::OutputComparison::wanted(options_.checks, options_.disabled_rules);
  }

  // Runs spmd under `script`; `offered` receives the choices the run was offered. A run whose
  // output differs from the default schedule's gets a schedule-divergence finding.
  RunResult run(const std::function<void()>& spmd, trace::ChoiceScript script,
                std::vector<trace::OfferedChoice>& offered) {
    offered.clear();
    const rt::GuideInMemory guide{std::move(script), &offered};
    RunResult r = rt::run_in_process(options_, spmd, &guide);
    if (compare_ && r.ok()) compare_with_default(r);
    return r;
  }

 private:
  void compare_with_default(RunResult& r) {
    std::vector<std::uint64_t> digests;
    for (const std::string& out : r.output) digests.push_back(rt::fnv1a64(out.data(), out.size()));
    // As the command: per processors available, the first clean run is the reference (the
    // default schedule, unless it failed by the caller's verdict only).
    if (!outputs_.has_reference(options_.procs)) default_output_ = r.output;
    const auto differs = outputs_.compare(options_.procs, 0, digests);
    if (!differs) return;
    const int pid = differs->first;
    const std::string line =
        checker::first_line_difference(checker::output_lines(default_output_[static_cast<std::size_t>(pid)]),
                                       checker::output_lines(r.output[static_cast<std::size_t>(pid)]), "in its output",
                                       "the default schedule", "this one")
            .value_or("the outputs differ");
    r.findings.push_back(checker::default_schedule_divergence_finding(pid, line, r.supersteps));
  }

  Options options_;
  bool compare_ = false;
  checker::OutputComparison outputs_;
  std::vector<std::string> default_output_;  // per process, under the default schedule
};

}  // namespace

ExploreResult explore(const Options& options, const std::function<void()>& spmd, std::size_t bound,
                      std::size_t max_runs) {
  Search runs(options);
  ExploreResult out;
  trace::BoundedSearch search(bound);
  std::vector<trace::OfferedChoice> offered;
  while (const auto s = search.next()) {
    if (out.schedules >= max_runs) return out;  // not exhausted
    RunResult r = runs.run(spmd, trace::BoundedSearch::script(*s), offered);
    ++out.schedules;
    if (!r.ok()) {
      out.failed = true;
      out.failing = std::move(r);
      out.deviations = trace::describe_deviations(offered);
      return out;
    }
    search.ran(*s, offered);
  }
  out.exhausted = search.exhaustive();
  return out;
}

CoverageResult coverage_search(const Options& options, const std::function<void()>& spmd, std::uint64_t seed,
                               std::size_t max_runs, const std::function<bool(const RunResult&)>& fails) {
  Search runs(options);
  CoverageResult out;
  trace::CoverageSearch search(seed);
  std::vector<trace::OfferedChoice> offered;
  while (out.schedules < max_runs) {
    const trace::CoverageSearch::Schedule s = search.next();
    RunResult r = runs.run(spmd, trace::CoverageSearch::script(s), offered);
    ++out.schedules;
    search.ran(s, offered);
    out.tuples = search.tuples();
    out.corpus = search.corpus_size();
    if (fails ? fails(r) : !r.ok()) {
      out.failed = true;
      out.failing = std::move(r);
      out.deviations = trace::describe_deviations(offered);
      return out;
    }
  }
  return out;
}

ShrinkResult shrink(const Options& options, const std::function<void()>& spmd, const std::string& trace_file,
                    const std::string& output_file, std::size_t max_runs) {
  ShrinkResult out;
  Options replay = options;
  replay.trace_file.clear();
  replay.guide_file.clear();
  replay.guide_log.clear();
  replay.replay_file = trace_file;
  const RunResult original = run(replay, spmd);
  if (original.ok()) return out;
  out.failed = true;
  out.rule = failing_rule(original);

  const std::vector<trace::RecordedChoice> choices = trace::recorded_choices(trace::Reader::open(trace_file));
  out.choices = choices.size();
  Options guided = replay;
  guided.replay_file.clear();
  auto keep_only = [&](const std::vector<std::size_t>& kept) {
    std::vector<bool> keep(choices.size(), false);
    for (std::size_t i : kept) keep[i] = true;
    return rt::GuideInMemory{trace::keep_choices(choices, keep), nullptr};
  };
  const trace::ShrinkOutcome s = trace::shrink_choices(
      choices.size(),
      [&](const std::vector<std::size_t>& kept) {
        const rt::GuideInMemory guide = keep_only(kept);
        return fails_with(rt::run_in_process(guided, spmd, &guide), out.rule);
      },
      max_runs);
  out.kept = s.kept.size();
  out.runs = s.runs;
  Options record = guided;
  record.trace_file = output_file;
  const rt::GuideInMemory guide = keep_only(s.kept);
  out.minimal = rt::run_in_process(record, spmd, &guide);
  return out;
}

}  // namespace bspcheck
