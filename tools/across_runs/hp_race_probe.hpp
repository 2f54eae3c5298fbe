// hp_race_probe.hpp: the second look at a run of an AddressSanitizer build whose bsp_hpput found its
// target already running in the superstep (docs/checks.md, "ASan-only rules"). The target may
// have read the destination before the call, where nothing was poisoned yet; the race is there
// all the same, whichever order the schedule drew. The run named such destinations
// (RunReport::hp_race_probes); the same (p, seed) runs once more with them poisoned from their
// superstep's start, and an access there is hp-dst-read (a write, hp-dst-conflict), on every
// seed rather than on those where the caller happened to run first.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "bspcheck/bspcheck.hpp"
#include "tools/cli/run_config.hpp"
#include "tools/launch/stdin_feed.hpp"

namespace bspcheck::cli {

struct ProbeResult {
  std::vector<Finding> findings;    // the hazards the second run caught (empty: none)
  std::vector<HpRaceProbe> probes;  // what it poisoned, for a kept trace of the failure
};

// A run's probes that are new to the session, and the keys that name them: a destination is known by
// all but its superstep (target, slot, offset, size, caller, call site). `probed` holds the keys
// of those looked at without a finding: a program that does the same in every run is looked at
// once per destination, not once per seed, and a race seen once is looked for in every run.
// Malformed entries are skipped.
struct NewProbes {
  std::vector<HpRaceProbe> probes;
  std::vector<std::string> keys;
};
NewProbes new_probes(const std::vector<std::string>& reported, const std::set<std::string>& probed);

// Runs (p, seed) again with `probes` poisoned (captured, without a trace or kept files) and
// returns the hp hazards it found. Nothing when the run's standard input is a terminal, which
// cannot be given to it twice.
ProbeResult probe_hp_races(const RunConfig& c, const std::string& path, int p, std::uint64_t seed, StdinFeed& in,
                           const std::vector<HpRaceProbe>& probes);

}  // namespace bspcheck::cli
