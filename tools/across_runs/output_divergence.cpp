#include "tools/across_runs/output_divergence.hpp"

#include <cstdlib>
#include <sstream>
#include <tuple>

#include "bspcheck/rules.hpp"
#include "runtime/base/hash.hpp"
#include "tools/across_runs/determinism_check.hpp"
#include "tools/cli/reproduce_command.hpp"

namespace bspcheck::cli {

bool compare_outputs_wanted(const RunConfig& c) {
  return !c.schedule_dependent_output &&
         checker::OutputComparison::wanted(c.options.run.checks, c.options.run.disabled_rules);
}

std::optional<std::pair<int, std::uint64_t>> compare_outputs(checker::OutputComparison& outputs, const RunOutcome& r) {
  if (!r.reported) return std::nullopt;
  return outputs.compare(r.p, r.seed, r.report.output_hash);
}

std::vector<std::string> lines_of(const std::string& text, int pid) {
  std::vector<std::string> lines;
  const std::string tag = "[" + std::to_string(pid) + "] ";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(tag, 0) == 0) lines.push_back(line.substr(tag.size()));
  return lines;
}

std::string first_output_difference(const RunOutcome& a, const RunOutcome& b, int pid, const std::string& name_a,
                                    const std::string& name_b) {
  for (std::string RunOutcome::*stream : {&RunOutcome::out, &RunOutcome::err})
    if (const auto line =
            checker::first_line_difference(lines_of(a.*stream, pid), lines_of(b.*stream, pid),
                                           stream == &RunOutcome::out ? "on stdout" : "on stderr", name_a, name_b))
      return *line;
  return "the outputs could not be told apart when run again";
}

std::optional<ExpectedLine> first_differing_line(const RunOutcome& reference, const RunOutcome& failing, int pid) {
  for (int stream = 0; stream < 2; ++stream) {
    const std::string RunOutcome::*text = stream == 0 ? &RunOutcome::out : &RunOutcome::err;
    const std::vector<std::string> a = lines_of(reference.*text, pid), b = lines_of(failing.*text, pid);
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    if (i == b.size()) {
      if (i == a.size()) continue;  // the same on this stream
      return std::nullopt;          // the failing run prints fewer lines: the run's end tells
    }
    ExpectedLine e;
    e.process = pid;
    e.stream = stream;
    e.line = static_cast<long>(i) + 1;
    e.reference_has_it = i < a.size();
    if (e.reference_has_it) e.digest = rt::fnv1a64(a[i].data(), a[i].size());
    return e;
  }
  return std::nullopt;
}

const char* const kContextPrefix = "[%p|%s|%c] ";

namespace {

// A line process pid printed, captured with the prefix kContextPrefix: its text, and the
// superstep and last BSPlib call (with its site) of the process when it printed it.
struct PrintedLine {
  std::string text;
  int superstep = 0;
  Location after;  // the process's last BSPlib call before the line
};

std::vector<PrintedLine> printed_lines(const std::string& text, int pid) {
  std::vector<PrintedLine> lines;
  const std::string tag = "[" + std::to_string(pid) + "|";
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(tag, 0) != 0) continue;
    const std::size_t bar = line.find('|', tag.size()), end = line.find("] ", tag.size());
    if (bar == std::string::npos || end == std::string::npos || bar > end) continue;
    PrintedLine l;
    l.text = line.substr(end + 2);
    l.superstep = std::atoi(line.substr(tag.size(), bar - tag.size()).c_str());
    const std::string call = line.substr(bar + 1, end - bar - 1);  // call[@file:line]
    const std::size_t at = call.find('@'), colon = call.rfind(':');
    l.after.process = pid;
    l.after.call = call.substr(0, at);
    if (at != std::string::npos && colon != std::string::npos && colon > at) {
      l.after.file = call.substr(at + 1, colon - at - 1);
      l.after.line = std::atoi(call.substr(colon + 1).c_str());
    }
    lines.push_back(std::move(l));
  }
  return lines;
}

}  // namespace

bool same_call_site(const Location& x, const Location& y) {
  return x.file == y.file && x.line == y.line && x.process == y.process && x.call == y.call;
}

bool locate_difference(const RunOutcome& a, const RunOutcome& b, int pid, Finding& f) {
  for (std::string RunOutcome::*stream : {&RunOutcome::out, &RunOutcome::err}) {
    const std::vector<PrintedLine> la = printed_lines(a.*stream, pid), lb = printed_lines(b.*stream, pid);
    std::size_t i = 0;
    while (i < la.size() && i < lb.size() && la[i].text == lb[i].text) ++i;
    if (i == la.size() && i == lb.size()) continue;
    const PrintedLine* pa = i < la.size() ? &la[i] : la.empty() ? nullptr : &la.back();
    const PrintedLine* pb = i < lb.size() ? &lb[i] : lb.empty() ? nullptr : &lb.back();
    f.superstep = pb ? pb->superstep : pa ? pa->superstep : 0;
    if (pa) f.locations.push_back(pa->after);
    if (pb && !(pa && same_call_site(pa->after, pb->after))) f.locations.push_back(pb->after);  // once when both agree
    return true;
  }
  return false;
}

bool locate_output_difference(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                              std::uint64_t seed_b, int pid, StdinFeed& in, Finding& f) {
  RunConfig again = c;
  again.prefix = kContextPrefix;
  again.keep_trace = false;
  again.options.run.trace_file.clear();
  const RunOutcome a = run_once(again, path, p, seed_a, in, false);
  const RunOutcome b = run_once(again, path, p, seed_b, in, false);
  return locate_difference(a, b, pid, f);
}

std::string divergence_reproduce(const RunConfig& c, int p, std::uint64_t seed_a, std::uint64_t seed_b) {
  return repro_command(c, p, seed_a, seed_b > seed_a ? seed_b - seed_a + 1 : 1);
}

// Runs are deterministic: running both seeds again with per-process prefixes shows the lines.
Finding divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                           std::uint64_t seed_b, int pid, StdinFeed& in, const std::vector<std::uint64_t>& digests_a,
                           const std::vector<std::uint64_t>& digests_b, std::optional<ExpectedLine>* line) {
  RunConfig again = c;
  again.prefix = "[%p] ";
  again.keep_trace = false;
  const RunOutcome a = run_once(again, path, p, seed_a, in, false);
  const RunOutcome b = run_once(again, path, p, seed_b, in, false);
  // A seed that disagrees with itself says nothing about schedules: the program's output depends
  // on something else (the prefix is not in the digests).
  for (const auto& [run, first, seed] : {std::tuple{&a, &digests_a, seed_a}, std::tuple{&b, &digests_b, seed_b}})
    if (run->reported && !run->report.output_hash.empty() && run->report.output_hash != *first) {
      int differs = pid;
      for (std::size_t k = 0; k < first->size() && k < run->report.output_hash.size(); ++k)
        if ((*first)[k] != run->report.output_hash[k]) {
          differs = static_cast<int>(k);
          break;
        }
      return output_nondeterminism_finding(c, path, p, seed, differs, nullptr, nullptr, in);
    }
  const std::string detail =
      first_output_difference(a, b, pid, "seed " + std::to_string(seed_a), "seed " + std::to_string(seed_b));
  if (line) *line = first_differing_line(a, b, pid);
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.severity = rule_severity(Rule::schedule_divergence);
  // Once more with the superstep and last call in the prefix, to locate the difference.
  const bool located = locate_output_difference(c, path, p, seed_a, seed_b, pid, in, f);
  const std::string session = divergence_reproduce(c, p, seed_a, seed_b);
  f.message = "process " + std::to_string(pid) + " prints different output under seeds " + std::to_string(seed_a) +
              " and " + std::to_string(seed_b) + " (p = " + std::to_string(p) + ")" +
              (located ? ", from superstep " + std::to_string(f.superstep) : std::string()) + "; " + detail +
              (located ? " (the locations: each seed's last BSPlib call before that line)" : "") +
              ". Reproduce: " + session + " ; each seed alone: " + repro_command(c, p, seed_a) + " ; " +
              repro_command(c, p, seed_b) +
              ". If the output legitimately depends on the schedule, use --schedule-dependent-output";
  f.processes = {pid};
  return f;
}

}  // namespace bspcheck::cli
