#include "tools/commands/replay_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

#include "replay/rank_traces.hpp"
#include "replay/trace_format.hpp"
#include "runtime/options/options.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/commands/run_command.hpp"
#include "tools/launch/memory_available.hpp"

namespace bspcheck::cli {

bool config_from_trace(const trace::Header& h, const std::string& trace_path, const std::vector<std::string>& program,
                       RunConfig& c, std::string& error) {
  if (!program.empty()) {
    c.program = program.front();
    c.args.assign(program.begin() + 1, program.end());
    c.program_replaces_traced = true;
  } else if (h.strategy == trace::kMpiStrategy) {
    // The recorded program was linked against the MPI back end; the engine runs its twin.
    error = trace_path + " records an MPI run of " + (h.program.empty() ? "a program" : h.program) +
            ": give the same program built for the engine (bspcc without --backend=mpi) after --";
    return false;
  } else if (!h.program.empty()) {
    c.program = h.program;
    c.args = h.args;
  } else {
    error = trace_path + " was recorded in-process and names no program: give one after --";
    return false;
  }
  c.procs = {static_cast<int>(h.procs)};
  c.procs_text = std::to_string(h.procs);
  c.seed = h.seed;
  c.seeds = 1;
  c.keep_trace = false;
  try {
    // An explored trace answers every choice itself (its replay explores, replay_scheduler.hpp).
    // So does a trace merged from MPI ranks' records (with the processes in pid order).
    const bool own_choices = h.strategy == trace::kExploringStrategy || h.strategy == trace::kMpiStrategy;
    rt::set_program_option(c.options, "strategy", own_choices ? std::string("random") : h.strategy);
    // The recorded run's checker options, so that the replay reports what it reported (and only
    // those: printed again through the table's checker rows).
    const rt::ProgramOptions recorded = rt::parse_program_options(h.checks);
    rt::parse_program_options(rt::format_program_options(recorded, rt::OptionScope::checker), c.options);
  } catch (const std::invalid_argument& e) {
    error = trace_path + ": its checker options are malformed: " + e.what();
    return false;
  }
  return true;
}

// The trace's header, after checking that the whole trace can be replayed: its checksum, or,
// where it has no end record (a run that crashed) or the checksum does not match, every record
// (which names what is wrong, and where).
std::optional<trace::Header> trace_to_run_again(const std::string& path) {
  trace::Header h;
  try {
    trace::EventStream stream = trace::EventStream::open(path);
    h = stream.header();
    if (!trace::sealed_and_intact(path, h.version))
      for (trace::Event e; stream.next(e);) {
      }
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: " << e.what() << "\n";
    return std::nullopt;
  }
  if (path.find(':') != std::string::npos) {
    std::cerr << "bsp-check: error: " << path << ": a path with ':' cannot be passed in BSPCHECK_OPTIONS\n";
    return std::nullopt;
  }
  return h;
}

namespace {

// A replay (or shrink's replays) runs every rank of an MPI job in this one process: when their
// data, as their records measured it at its peak, cannot fit in what this machine (or this
// process's limits) leaves, it is said before the replay starts, with what it would need (item 5
// of issue 44).
bool ranks_fit(const trace::RanksMemory& m) {
  if (m.measured == 0) return true;  // records before format 4 say nothing of it
  const MemoryBound available = memory_available();
  if (m.total <= available.bytes) return true;
  std::cerr << "bsp-check: error: the replay runs the " << m.measured << " MPI ranks in one process and needs at least "
            << bytes_text(m.total) << " (their data at its peak in the recorded run, added up; rank " << m.largest_rank
            << " took the most, " << bytes_text(m.largest) << "), more than the " << bytes_text(available.bytes)
            << " available (" << available.what << "); --no-memory-check replays anyway\n";
  return false;
}

}  // namespace

bool merge_rank_records(std::string& path, bool check_memory) {
  // PATH itself is merged again from the records beside it: a new run with the same trace=PATH
  // leaves the earlier merged trace behind.
  const std::string prefix = trace::records_prefix(path);
  if (prefix.empty()) return true;  // an engine trace
  trace::RanksMemory memory;
  try {
    const int p = trace::merge_rank_traces(prefix, prefix, &memory);
    std::cerr << "bsp-check: note: merged the records of " << p << " MPI ranks (" << trace::rank_trace_path(prefix, 0)
              << " ...) into " << prefix << "\n";
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: the MPI ranks' records cannot be replayed: " << e.what() << "\n";
    return false;
  }
  path = prefix;
  return !check_memory || ranks_fit(memory);
}

int replay_command(const std::vector<std::string>& args, const char* version) {
  CLI::App app{
      "bsp-check replay: run a program again with the choices recorded in TRACE, checking that it makes\n"
      "the same BSPlib calls; the first difference is reported as replay-divergence.\n"
      "\nUsage: bsp-check replay [options] TRACE [-- PROGRAM ARGS...]\n"
      "PROGRAM and ARGS default to the ones recorded in the trace.",
      "bsp-check replay"};
  std::string trace_path, prefix, keep_files;
  double timeout = 0;
  app.add_option("TRACE", trace_path,
                 "the trace (from --trace, or kept from a failing run); or an MPI run's records (PATH, or "
                 "PATH.rank<K>, from trace=PATH), merged into PATH first")
      ->required();
  app.add_option("--prefix", prefix, "prefix every output line of process k, with %p replaced by k");
  app.add_option("--timeout", timeout, "seconds the replay may take: " + option_help("timeout"))
      ->check(option_value("timeout"));
  app.add_option("--keep-files", keep_files,
                 "keep the files the replay wrote in DIR/p<P>-s<SEED>/ as well (they are copied back in any case)")
      ->type_name("DIR");
  bool no_memory_check = false;
  app.add_flag("--no-memory-check", no_memory_check,
               "replay an MPI run's records even where the ranks' data, added up, exceeds the memory available");
  std::vector<std::string> program;
  app.add_option("PROGRAM", program, "the program and its arguments (after --)");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  if (!merge_rank_records(trace_path, !no_memory_check)) return 2;
  const std::optional<trace::Header> checked = trace_to_run_again(trace_path);
  if (!checked) return 2;
  const trace::Header& h = *checked;
  RunConfig c;
  std::string error;
  if (!config_from_trace(h, trace_path, program, c, error)) {
    std::cerr << "bsp-check: error: " << error << "\n";
    return 2;
  }
  c.options.run.replay_file = trace_path;
  c.prefix = prefix;
  c.options.timeout_seconds = timeout;
  c.options.keep_files = keep_files;
  c.version = version;
  c.command_line = repro_command(c, 0, 0);  // the replay line, with "-- PROGRAM" if one was given
  return run_command(c);
}

}  // namespace bspcheck::cli
