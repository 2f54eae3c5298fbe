// stats_command.hpp: `bsp-check stats REPORT.json...`: what a search covered and found, from the
// --json reports of `bsp-check run` (one session, its shards, or sessions of several strategies):
// per strategy the schedules run, the distinct behaviours they reached and the failures with
// their seeds; per rule the runs that raised it and its first seeds; per superstep the runs
// that reached it and the findings raised there (docs/cli.md, "stats").
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "stats". Exit status: 0, or 2 for bad usage or an unreadable report.
int stats_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
