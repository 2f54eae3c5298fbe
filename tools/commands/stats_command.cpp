#include "tools/commands/stats_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "bspcheck/rules.hpp"
#include "runtime/scheduling/coverage_map.hpp"
#include "runtime/base/hash.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/reports/run_report_file.hpp"

namespace bspcheck::cli {

namespace {

// The strategy under which an MPI job's runs are listed (docs/mpi.md: merged from their run reports).
constexpr const char* kMpiJobs = "mpi";

// A run's behaviour, as far as a report shows it: its p, how many processes and supersteps it
// had, what each process printed (the output digests) and which rules fired in which superstep.
// Two schedules with the same behaviour are, for the program's observable results, one: the
// number of distinct behaviours is the coverage a sample of schedules reached.
std::uint64_t behaviour(const RunRecord& run) {
  rt::Fnv1a64 h;
  h.add(std::to_string(run.p) + "/" + std::to_string(run.nprocs) + "/" + std::to_string(run.supersteps) + "/" +
        (run.passed ? "ok" : "failed"));
  for (std::uint64_t d : run.output_hash) h.add(std::to_string(d) + ",");
  std::set<std::string> rules;
  for (const Finding& f : run.findings) rules.insert(f.rule + "@" + std::to_string(f.superstep));
  for (const std::string& r : rules) h.add(r + ";");
  return h.value();
}

struct StrategyStats {
  std::set<int> procs;
  std::uint64_t runs = 0, failed = 0;
  std::set<std::uint64_t> behaviours;
  rt::CoverageMap coverage;          // the union of its runs' coverage tuples
  std::vector<std::string> failing;  // "p=4 seed=12", first ones
};

struct RuleStats {
  std::string severity;
  std::uint64_t runs = 0;
  std::set<int> supersteps;
  std::vector<std::string> first;  // "p=4 seed=12"
};

struct SuperstepStats {
  std::uint64_t reached = 0;                   // runs with more supersteps than this one
  std::set<std::pair<int, int>> tuples;        // coverage tuples reached here: (kind, outcome), any strategy
  std::map<std::string, std::uint64_t> rules;  // rule -> runs that raised it here
};

std::string procs_text(const std::set<int>& procs) {
  std::string s;
  for (int p : procs) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

std::string join(const std::vector<std::string>& v, std::size_t more) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  if (more) s += ", ... (" + std::to_string(more) + " more)";
  return s;
}

constexpr std::size_t kShown = 5;  // seeds listed per line

// What the reports' runs add up to.
struct Stats {
  std::map<std::string, StrategyStats> strategies;
  std::map<std::string, RuleStats> rules;
  std::map<int, SuperstepStats> supersteps;
  std::map<std::string, std::uint64_t> rule_more;     // rule -> failing runs beyond the first kShown
  std::map<std::string, std::uint64_t> failing_more;  // strategy -> the same
  std::set<std::string> programs;
  std::uint64_t total = 0;
};

// Reads the reports; false (the error printed) when one cannot be read.
bool gather(const std::vector<std::string>& inputs, Stats& st) {
  auto& [strategies, rules, supersteps, rule_more, failing_more, programs, total] = st;
  // Every run once (shards of one session may overlap: a merged report and its inputs), in the
  // order merge gives them, by strategy, p and seed, whatever the order of the inputs: the first
  // failing runs listed are then those of the unsharded session.
  // (Runs that merge made from programs' own run reports have a number of their own: two MPI jobs
  // at one p, which have no seed, stay two.)
  std::map<std::tuple<std::string, int, std::uint64_t, std::uint64_t>, RunRecord> runs;
  const bool read = for_each_report(inputs, [&](const std::string&, const nlohmann::json& report) {
    programs.insert(report["program"].get<std::string>());
    const nlohmann::json options = report.value("options", nlohmann::json::object());
    const std::string strategy = options.is_object() && options.contains("strategy") && options["strategy"].is_string()
                                     ? options["strategy"].get<std::string>()
                                     : std::string("random");
    // An MPI job's run (merged from its run report) had no strategy: its schedule was the real
    // machine's. Listed as "mpi", not as the report's default.
    bool any_mpi = false, any_scheduled = false;
    for (const auto& json_run : report["runs"]) {
      RunRecord run = record_of(json_run);
      const std::string run_strategy = run.mpi_ranks > 0 ? kMpiJobs : strategy;
      any_mpi = any_mpi || run.mpi_ranks > 0;
      any_scheduled = any_scheduled || run.mpi_ranks == 0;
      runs.try_emplace({run_strategy, run.p, run.seed, run.run_report}, std::move(run));
    }
    // The tuples the report's session reached: per strategy, and per superstep for all.
    add_coverage(strategies[any_mpi && !any_scheduled ? kMpiJobs : strategy].coverage, report);
    for (const CoverageTuple& t : coverage_of(report)) supersteps[t.superstep].tuples.insert({t.kind, t.outcome});
    return true;
  });
  if (!read) return false;
  for (const auto& [key, run] : runs) {
    const std::string& strategy = std::get<0>(key);
    ++total;
    const std::string where = run_name(run);
    StrategyStats& s = strategies[strategy];
    s.procs.insert(run.p);
    ++s.runs;
    s.behaviours.insert(behaviour(run));
    if (!run.passed) {
      ++s.failed;
      if (s.failing.size() < kShown) s.failing.push_back(where);
      else ++failing_more[strategy];
    }
    for (int k = 0; k <= run.supersteps && k < 100000; ++k) ++supersteps[k].reached;
    std::set<std::string> rules_of_run;
    std::set<std::pair<std::string, int>> rules_here;
    for (const Finding& f : run.findings) {
      if (f.rule.empty()) continue;
      RuleStats& r = rules[f.rule];
      r.severity = severity_name(f.severity);
      r.supersteps.insert(f.superstep);
      if (rules_of_run.insert(f.rule).second) {
        ++r.runs;
        if (r.first.size() < kShown) r.first.push_back(where);
        else ++rule_more[f.rule];
      }
      if (rules_here.insert({f.rule, f.superstep}).second) ++supersteps[f.superstep].rules[f.rule];
    }
  }
  return true;
}

void print_json(const Stats& st) {
  const auto& [strategies, rules, supersteps, rule_more, failing_more, programs, total] = st;
  nlohmann::json j = {{"format", "bsp-check-stats"}, {"version", 1}, {"runs", total}};
  j["programs"] = programs;
  for (const auto& [name, s] : strategies)
    j["strategies"][name] = {{"procs", s.procs},
                             {"runs", s.runs},
                             {"failed", s.failed},
                             {"distinct_behaviours", s.behaviours.size()},
                             {"coverage_tuples", s.coverage.size()},
                             {"failing", s.failing}};
  for (const auto& [name, r] : rules)
    j["rules"][name] = {{"severity", r.severity}, {"runs", r.runs}, {"supersteps", r.supersteps}, {"first", r.first}};
  for (const auto& [k, s] : supersteps)
    j["supersteps"].push_back(
        {{"superstep", k}, {"reached", s.reached}, {"coverage_tuples", s.tuples.size()}, {"rules", s.rules}});
  std::cout << j.dump(2) << "\n";
}

void print_tables(const Stats& st, std::size_t reports) {
  // A copy: the counts of runs beyond those listed are looked up with [], 0 where there are none.
  auto [strategies, rules, supersteps, rule_more, failing_more, programs, total] = st;
  std::printf("bsp-check stats: %llu run%s of %s, from %zu report%s\n", static_cast<unsigned long long>(total),
              total == 1 ? "" : "s", join({programs.begin(), programs.end()}, 0).c_str(), reports,
              reports == 1 ? "" : "s");
  std::printf("\nper strategy:\n  %-12s %-10s %9s %8s %12s %9s  %s\n", "strategy", "p", "schedules", "failed",
              "behaviours", "coverage", "failing runs");
  for (const auto& [name, s] : strategies)
    std::printf("  %-12s %-10s %9llu %8llu %12zu %9zu  %s\n", name.c_str(), procs_text(s.procs).c_str(),
                static_cast<unsigned long long>(s.runs), static_cast<unsigned long long>(s.failed), s.behaviours.size(),
                s.coverage.size(), s.failing.empty() ? "-" : join(s.failing, failing_more[name]).c_str());
  std::printf(
      "  (behaviours: distinct combinations of process count, supersteps, each process's output and the\n"
      "   rules raised per superstep; coverage: distinct (superstep, choice kind, outcome) tuples the\n"
      "   schedules' choices reached, docs/exploration.md)\n");
  std::printf("\nper rule:\n");
  if (rules.empty()) std::printf("  no findings\n");
  for (const auto& [name, r] : rules) {
    std::string steps;
    for (int k : r.supersteps) steps += (steps.empty() ? "" : ",") + std::to_string(k);
    std::printf("  %-28s %-8s %6llu run%s  supersteps %s  first: %s\n", name.c_str(), r.severity.c_str(),
                static_cast<unsigned long long>(r.runs), r.runs == 1 ? " " : "s", steps.c_str(),
                join(r.first, rule_more[name]).c_str());
  }
  std::printf("\nper superstep:\n  %-9s %8s %9s  %s\n", "superstep", "reached", "coverage", "findings (runs)");
  for (const auto& [k, s] : supersteps) {
    std::string found;
    for (const auto& [rule, n] : s.rules) found += (found.empty() ? "" : ", ") + rule + " (" + std::to_string(n) + ")";
    std::printf("  %-9d %8llu %9zu  %s\n", k, static_cast<unsigned long long>(s.reached), s.tuples.size(),
                found.empty() ? "-" : found.c_str());
  }
}

}  // namespace

int stats_command(const std::vector<std::string>& args) {
  CLI::App app{
      "bsp-check stats: what the runs of one or more --json reports (bsp-check run --json, shards, several\n"
      "strategies) covered and found: per strategy the schedules run, the distinct behaviours reached\n"
      "and the failing seeds; per rule the runs that raised it; per superstep the runs that reached it\n"
      "and the findings raised there.\n"
      "\nUsage: bsp-check stats [--json] REPORT.json...",
      "bsp-check stats"};
  std::vector<std::string> inputs;
  bool json = false;
  app.add_flag("--json", json, "print the statistics as JSON instead of tables");
  app.add_option("REPORT", inputs, "--json reports of bsp-check run")->required();
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;

  Stats st;
  if (!gather(inputs, st)) return 2;
  if (json) print_json(st);
  else print_tables(st, inputs.size());
  return 0;
}

}  // namespace bspcheck::cli
