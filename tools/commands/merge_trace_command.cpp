#include "tools/commands/merge_trace_command.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "replay/rank_traces.hpp"
#include "replay/trace_format.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/launch/memory_available.hpp"

namespace bspcheck::cli {

int merge_trace_command(const std::vector<std::string>& args) {
  CLI::App app{
      "bsp-check merge-trace: merge the records of an MPI job's ranks (BSPCHECK_OPTIONS=trace=PATH writes\n"
      "PATH.rank<K>) into one engine trace, which bsp-check replay, shrink, show and debug take with the\n"
      "program built for the engine (replay and the others also merge the records themselves).\n"
      "Exit status: 0 merged, 2 bad usage or records that cannot be followed together.\n"
      "\nUsage: bsp-check merge-trace [-o OUT] RECORDS",
      "bsp-check merge-trace"};
  std::string records, out;
  app.add_option("RECORDS", records, "the records' PATH (as given to trace=), or any one of them, PATH.rank<K>")
      ->required();
  app.add_option("-o,--output", out, "write the merged trace to FILE (default: PATH)")
      ->check(bspcheck::cli::output_file())
      ->type_name("FILE");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;

  const std::string prefix = trace::records_prefix(records);
  if (prefix.empty()) {
    std::cerr << "bsp-check: error: " << records << ": not an MPI job's records (no "
              << trace::rank_trace_path(records, 0) << "; trace=PATH writes PATH.rank<K>)\n";
    return 2;
  }
  if (out.empty()) out = prefix;
  trace::RanksMemory memory;
  int p = 0;
  try {
    p = trace::merge_rank_traces(prefix, out, &memory);
  } catch (const trace::TraceError& e) {
    std::cerr << "bsp-check: error: the MPI ranks' records cannot be merged: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "bsp-check: merged the records of " << p << " MPI rank" << (p == 1 ? "" : "s") << " ("
            << trace::rank_trace_path(prefix, 0) << (p > 1 ? " ..." : "") << ") into " << out << "\n";
  if (memory.measured > 0)
    std::cerr << "  a replay runs them in one process and needs at least " << bytes_text(memory.total)
              << " (their data at its peak, added up)\n";
  std::cerr << "  replay: bsp-check replay " << out << " -- PROGRAM (the same program built for the engine)\n";
  return 0;
}

}  // namespace bspcheck::cli
