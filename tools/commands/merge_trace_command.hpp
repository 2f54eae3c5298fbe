// merge_trace_command.hpp: `bsp-check merge-trace [-o OUT] RECORDS`: the records an MPI job's
// ranks wrote (BSPCHECK_OPTIONS=trace=PATH: PATH.rank<K>) merged into one engine trace, the one
// `replay`, `shrink`, `show` and `debug` merge for themselves first (docs/mpi.md, "Record and
// replay"): to keep it, copy it off the cluster, or merge it where the records are and replay it
// elsewhere.
#pragma once

#include <string>
#include <vector>

namespace bspcheck::cli {

// args[0] is "merge-trace". Exit status: 0, or 2 for bad usage or records that cannot be merged.
int merge_trace_command(const std::vector<std::string>& args);

}  // namespace bspcheck::cli
