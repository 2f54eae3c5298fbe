#include "tools/across_runs/hp_race_probe.hpp"

#include <algorithm>
#include <stdexcept>

#include "bspcheck/rules.hpp"
#include "runtime/options/option_values.hpp"
#include "tools/launch/run_launcher.hpp"

namespace bspcheck::cli {

NewProbes new_probes(const std::vector<std::string>& reported, const std::set<std::string>& probed) {
  NewProbes fresh;
  for (const std::string& text : reported) {
    const std::size_t slash = text.find('/');
    std::string key = slash == std::string::npos ? text : text.substr(slash + 1);
    if (probed.count(key) || std::find(fresh.keys.begin(), fresh.keys.end(), key) != fresh.keys.end()) continue;
    try {
      for (HpRaceProbe& probe : rt::HpRaceProbeListValue::parse("hp_race_probe", text))
        fresh.probes.push_back(std::move(probe));
      fresh.keys.push_back(std::move(key));
    } catch (const std::invalid_argument&) {
      // A report from another build of the runtime: nothing to look at again.
    }
  }
  return fresh;
}

ProbeResult probe_hp_races(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, StdinFeed& in,
                           const std::vector<HpRaceProbe>& probes) {
  ProbeResult result;
  if (probes.empty() || in.terminal()) return result;
  RunConfig again = c;
  again.options.run.hp_race_probes = probes;
  // The same run, looked at once more: it records nothing and keeps no files of its own.
  again.options.run.trace_file.clear();
  again.options.keep_files.clear();
  const RunOutcome r = run_once(again, path, p, seed, in, false);
  for (const Finding& f : r.report.findings)
    if (f.rule == rule_id(Rule::hp_dst_read) || f.rule == rule_id(Rule::hp_dst_conflict)) result.findings.push_back(f);
  if (!result.findings.empty()) result.probes = probes;
  return result;
}

}  // namespace bspcheck::cli
