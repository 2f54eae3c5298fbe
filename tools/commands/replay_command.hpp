// replay_command.hpp: `bsp-check replay TRACE [-- PROGRAM ARGS...]`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "replay/rank_traces.hpp"
#include "replay/trace_format.hpp"
#include "tools/commands/run_command.hpp"

namespace bspcheck::cli {

// args[0] is "replay". Returns the exit status (0 clean, 1 failed or diverged, 2 bad usage or a
// bad trace).
int replay_command(const std::vector<std::string>& args, const char* version);

// The run a trace recorded, as a RunConfig (program from the trace unless `program` is given,
// p, seed, strategy and the checker options); false with error when it names no program.
bool config_from_trace(const trace::Header& h, const std::string& trace_path, const std::vector<std::string>& program,
                       RunConfig& c, std::string& error);

// The header of the trace at `path`, for a command that runs it again (replay, debug). The whole
// trace is read first, one record at a time (bounded memory), so that a damaged one is refused
// with its reason before anything runs, not half-way through; and its path must fit in
// BSPCHECK_OPTIONS. Nothing, after saying why on stderr, when it cannot be run again.
std::optional<trace::Header> trace_to_run_again(const std::string& path);

// The MPI back end's records (trace=PATH: PATH.rank0, PATH.rank1, ...; docs/mpi.md): given one of
// them, or PATH, they are merged into the engine trace PATH, which the command then runs (replay,
// shrink). path is then the merged trace. With check_memory, the ranks' data, as their records
// measured it, must fit in the memory available (--no-memory-check turns it off): a replay runs
// all ranks in one process. False after an error (said on stderr). Nothing is done to an engine
// trace.
bool merge_rank_records(std::string& path, bool check_memory);

}  // namespace bspcheck::cli
