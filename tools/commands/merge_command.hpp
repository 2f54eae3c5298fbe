// merge_command.hpp: `bsp-check merge`: the --json reports of sharded runs (`run --shard I/N`, on
// many machines) joined into one report of each asked format (docs/ci.md). Runs are keyed by
// (p, seed) and sorted, so a merge is the same whatever the order of its inputs, and merging a
// report with itself changes nothing.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "merge". Exit status: 0 no run failed, 1 a run failed, 2 bad usage or input.
int merge_command(const std::vector<std::string>& args, const char* version);

}  // namespace bspcheck::cli
