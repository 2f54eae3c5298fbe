#include "tools/determinism_check.hpp"

#include <unistd.h>

#include <cstdio>
#include <sstream>

#include "bspcheck/rules.hpp"
#include "replay/replay_scheduler.hpp"
#include "replay/trace_format.hpp"
#include "runtime/rng.hpp"
#include "tools/reproduce_command.hpp"
#include "tools/run_launcher.hpp"
#include "tools/temp_files.hpp"

namespace bspcheck::cli {

namespace {

std::string describe(const trace::Event& e) {
  switch (e.type) {
    case trace::Event::call: return trace::describe_call(e.rec);
    case trace::Event::choice:
      return "a scheduling choice (" + std::string(rt::choice_kind_text(e.kind)) + ", " + std::to_string(e.value) + ")";
    case trace::Event::superstep: return "the barrier into superstep " + std::to_string(e.value);
    case trace::Event::end: return "the end of the run";
  }
  return "?";
}

// Where the runs part, read from what differs.
std::string likely_source(const trace::Event& a, const trace::Event& b) {
  if (a.type == trace::Event::call && b.type == trace::Event::call && a.rec.call == b.rec.call &&
      a.rec.pid == b.rec.pid && a.rec.target == b.rec.target && a.rec.size == b.rec.size)
    return "the same call sends different bytes: data from the wall clock (time, gettimeofday, clock_gettime), "
           "rand or random without a fixed seed, getpid, addresses (pointers sent or hashed) or uninitialised "
           "memory";
  return "the program took another path: it read something that is not the same in every run (the wall clock, "
         "rand without a fixed seed, getpid, the environment, a file that changes, another thread)";
}

std::string temp_trace() {
  std::string t = temp_template("determinism");
  const int fd = mkstemp(t.data());
  if (fd >= 0) close(fd);
  return t;
}

}  // namespace

std::optional<Finding> check_determinism(const RunConfig& c, const std::string& path, int p, std::uint64_t seed,
                                         StdinFeed& in) {
  RunConfig again = c;
  again.keep_trace = false;
  again.options.run.replay_file.clear();
  again.options.run.guide_file.clear();
  again.options.run.guide_log.clear();
  const std::string first = temp_trace(), second = temp_trace();
  again.options.run.trace_file = first;
  const RunOutcome ra = run_once(again, path, p, seed, in, false);
  again.options.run.trace_file = second;
  const RunOutcome rb = run_once(again, path, p, seed, in, false);
  // A run stopped by its time limit ends its trace wherever the clock stopped it, so two such
  // traces part where the clock did, not where the program did: nothing to compare. The same for
  // a run that ended without its report (killed, or it never reached bsp_begin).
  const auto stopped_from_outside = [](const RunOutcome& r) {
    if (r.timed_out || !r.reported) return true;
    for (const Finding& f : r.report.findings)
      if (f.rule == rule_id(Rule::timeout)) return true;
    return false;
  };
  std::optional<Finding> finding;
  if (stopped_from_outside(ra) || stopped_from_outside(rb)) {
    std::remove(first.c_str());
    std::remove(second.c_str());
    return finding;
  }
  try {
    const trace::Reader a = trace::Reader::open(first), b = trace::Reader::open(second);
    const auto& ea = a.events();
    const auto& eb = b.events();
    std::uint64_t superstep = 0;
    const std::size_t common = std::min(ea.size(), eb.size());
    for (std::size_t i = 0; i < common; ++i) {
      const trace::Event& x = ea[i];
      const trace::Event& y = eb[i];
      const bool same = x.type == y.type && x.kind == y.kind && x.value == y.value &&
                        (x.type != trace::Event::call || x.rec == y.rec);
      if (same) {
        if (x.type == trace::Event::superstep) superstep = x.value;
        continue;
      }
      if (x.type == trace::Event::end || y.type == trace::Event::end) break;  // one was cut short
      Finding f;
      f.rule = rule_id(Rule::uncontrolled_nondeterminism);
      f.severity = rule_severity(Rule::uncontrolled_nondeterminism);
      f.superstep = static_cast<int>(superstep);
      const int pid = x.type == trace::Event::call ? static_cast<int>(x.rec.pid) : -1;
      if (pid >= 0) f.processes = {pid};
      std::ostringstream m;
      m << "two runs of the same seed part at event " << i + 1 << ": one makes " << describe(x) << ", the other "
        << describe(y) << "; likely source: " << likely_source(x, y)
        << ". Findings of this program may not reproduce from their seed. Reproduce: " << repro_command(c, p, seed)
        << " (twice, with --trace, and compare: bsp-check show)";
      f.message = m.str();
      finding = std::move(f);
      break;
    }
  } catch (const trace::TraceError&) {
    // A run that did not record (it never reached bsp_begin, or crashed before): nothing to compare.
  }
  std::remove(first.c_str());
  std::remove(second.c_str());
  return finding;
}

}  // namespace bspcheck::cli
