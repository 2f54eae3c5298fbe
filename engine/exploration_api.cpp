// The in-process searches of include/bspcheck/exploration.hpp: bounded search, coverage-guided
// search and shrinking (replay/bounded_search.hpp, replay/coverage_search.hpp, replay/shrink.hpp)
// over runs of an SPMD function. The searches steer each run through a guide in memory
// (engine/in_memory_guide.hpp); shrinking through the guide's script file in a
// temporary folder.
#include "bspcheck/exploration.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "engine/in_memory_guide.hpp"
#include "replay/bounded_search.hpp"
#include "replay/choice_script.hpp"
#include "replay/coverage_search.hpp"
#include "replay/shrink.hpp"
#include "replay/trace_format.hpp"

namespace bspcheck {

namespace {

// A temporary folder under $TMPDIR (or /tmp), removed with its files when this goes.
class ScratchFolder {
 public:
  ScratchFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string t = std::string(tmp && *tmp ? tmp : "/tmp") + "/bspcheck-search-XXXXXX";
    if (!mkdtemp(t.data())) throw std::runtime_error("bspcheck: cannot create a temporary folder: " + t);
    path_ = t;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The rule a failing run is kept failing with: its first finding that fails it.
std::string failing_rule(const RunResult& r) {
  for (const Finding& f : r.findings)
    if (f.severity == Severity::error || r.werror) return f.rule;
  return "";
}

bool fails_with(const RunResult& r, const std::string& rule) {
  if (r.ok()) return false;
  if (rule.empty()) return true;
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.rule == rule; });
}

// The options of a guided run: the guide, in memory, decides (and makes each run an exploring one).
Options guided_options(const Options& options) {
  Options o = options;
  o.guide_file.clear();
  o.guide_log.clear();
  o.trace_file.clear();
  o.replay_file.clear();
  return o;
}

}  // namespace

ExploreResult explore(const Options& options, const std::function<void()>& spmd, std::size_t bound,
                      std::size_t max_runs) {
  const Options o = guided_options(options);
  std::vector<trace::OfferedChoice> offered;
  rt::InMemoryGuide guide({}, offered);
  ExploreResult out;
  trace::BoundedSearch search(bound);
  while (const auto s = search.next()) {
    if (out.schedules >= max_runs) return out;  // not exhausted
    guide.set_script(trace::BoundedSearch::script(*s));
    RunResult r = run(o, spmd);
    ++out.schedules;
    if (!r.ok()) {
      out.failed = true;
      out.failing = std::move(r);
      out.deviations = trace::BoundedSearch::describe(*s, offered);
      return out;
    }
    search.ran(*s, offered);
  }
  out.exhausted = search.exhaustive();
  return out;
}

CoverageResult coverage_search(const Options& options, const std::function<void()>& spmd, std::uint64_t seed,
                               std::size_t max_runs, const std::function<bool(const RunResult&)>& fails) {
  const Options o = guided_options(options);
  std::vector<trace::OfferedChoice> offered;
  rt::InMemoryGuide guide({}, offered);
  CoverageResult out;
  trace::CoverageSearch search(seed);
  while (out.schedules < max_runs) {
    const trace::CoverageSearch::Schedule s = search.next();
    guide.set_script(trace::CoverageSearch::script(s));
    RunResult r = run(o, spmd);
    ++out.schedules;
    search.ran(s, offered);
    out.tuples = search.tuples();
    out.corpus = search.corpus_size();
    if (fails ? fails(r) : !r.ok()) {
      out.failed = true;
      out.failing = std::move(r);
      for (std::size_t i = 0; i < offered.size(); ++i)
        if (offered[i].value + 1 != offered[i].n)
          out.deviations.push_back("choice " + std::to_string(i + 1) + " (superstep " +
                                   std::to_string(offered[i].superstep) + "): " +
                                   trace::choice_kind_text(offered[i].kind) + " -> " + std::to_string(offered[i].value) +
                                   " of " + std::to_string(offered[i].n));
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
  ScratchFolder dir;
  Options guided = replay;
  guided.replay_file.clear();
  guided.guide_file = dir.file("script");
  auto keep_only = [&](const std::vector<std::size_t>& kept) {
    std::vector<bool> keep(choices.size(), false);
    for (std::size_t i : kept) keep[i] = true;
    trace::write_choice_script(guided.guide_file, choices, keep);
  };
  const trace::ShrinkOutcome s = trace::shrink_choices(
      choices.size(),
      [&](const std::vector<std::size_t>& kept) {
        keep_only(kept);
        return fails_with(run(guided, spmd), out.rule);
      },
      max_runs);
  out.kept = s.kept.size();
  out.runs = s.runs;
  keep_only(s.kept);
  Options record = guided;
  record.trace_file = output_file;
  out.minimal = run(record, spmd);
  return out;
}

}  // namespace bspcheck
