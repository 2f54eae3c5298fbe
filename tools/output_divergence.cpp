#include "tools/output_divergence.hpp"

#include <sstream>
#include <tuple>

#include "bspcheck/rules.hpp"
#include "tools/determinism_check.hpp"
#include "tools/reproduce_command.hpp"

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
    if (const auto line = checker::first_line_difference(lines_of(a.*stream, pid), lines_of(b.*stream, pid),
                                                         stream == &RunOutcome::out ? "on stdout" : "on stderr",
                                                         name_a, name_b))
      return *line;
  return "the outputs could not be told apart when run again";
}

// Runs are deterministic: running both seeds again with per-process prefixes shows the lines.
Finding divergence_finding(const RunConfig& c, const std::string& path, int p, std::uint64_t seed_a,
                           std::uint64_t seed_b, int pid, StdinFeed& in, const std::vector<std::uint64_t>& digests_a,
                           const std::vector<std::uint64_t>& digests_b) {
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
  Finding f;
  f.rule = rule_id(Rule::schedule_divergence);
  f.severity = rule_severity(Rule::schedule_divergence);
  f.message = "process " + std::to_string(pid) + " prints different output under seeds " + std::to_string(seed_a) +
                 " and " + std::to_string(seed_b) + " (p = " + std::to_string(p) + "); " + detail +
                 ". Reproduce both: " + repro_command(c, p, seed_a) + " ; " + repro_command(c, p, seed_b) +
                 ". If the output legitimately depends on the schedule, use --schedule-dependent-output";
  f.processes = {pid};
  return f;
}

}  // namespace bspcheck::cli
