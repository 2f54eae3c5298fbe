// `bsp-check show TRACE`: a recorded run superstep by superstep, with its BSP cost (BSPlib paper
// 5.1) and its E-BSP (M, k1, k2)-relations and locality; --json for tools, --chrome-trace for a
// timeline in Perfetto / chrome://tracing. docs/show.md describes every number.
#include "tools/commands/show_command.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include "replay/trace_format.hpp"
#include "tools/cli/cli_parse.hpp"
#include "tools/cli/option_checks.hpp"
#include "tools/commands/show_model.hpp"
#include "tools/commands/show_views.hpp"

namespace bspcheck::cli {

namespace {

// Per-superstep tables are p wide: a (corrupted or forged) trace naming process 10^8 is refused.
constexpr std::uint32_t kMaxShownProcs = 1u << 16;

// What the command line asks for.
struct ShowRequest {
  std::vector<std::string> trace_paths;
  std::string chrome_path, machine_name, topology = "linear", work = "zero", g_kind = "global";
  std::optional<double> g, l, s;
  std::optional<int> machine_p;
  std::uint64_t word_bytes = 4;
  bool json = false, list = false, no_tag = false, brief = false;
};

// Parses the options; an exit status when the command ends here (--help, a bad option).
std::optional<int> parse_show_options(const std::vector<std::string>& args, ShowRequest& r) {
  CLI::App app{
      "bsp-check show: a recorded run (a trace from --trace) superstep by superstep: the calls, bytes and\n"
      "messages of every process, the h-relation and BSP cost w + h*g + l, and the E-BSP\n"
      "(M, k1, k2)-relation and locality L. docs/show.md explains every number. Of several traces of\n"
      "one program (other seeds, p), the first is shown; all of them count for the counting\n"
      "synchronisation (cBSP's Table 3).\n"
      "\nUsage: bsp-check show [options] TRACE...",
      "bsp-check show"};
  app.add_option("TRACE", r.trace_paths,
                 "the trace (bsp-check run --trace FILE, or kept from a failing run); more traces of the same program "
                 "(other seeds, p) for the counting-synchronisation measure");
  app.add_flag("--json", r.json, "print the same data as JSON (docs/show.md) instead of text");
  app.add_option("--chrome-trace", r.chrome_path,
                 "write a timeline in the Trace Event Format to FILE (Perfetto, chrome://tracing)");
  app.add_option("--word-bytes", r.word_bytes,
                 "bytes per word for h, M, k1, k2 (default 4: Table 1 is for 32-bit words)")
      ->check(whole_number(1, std::uint64_t{1} << 30));
  app.add_option("--g", r.g, "g: flop units per word communicated (overrides the machine's)")
      ->check(real_number(0, 1e12, "flop units"));
  app.add_option("--l", r.l, "l: flop units per barrier (overrides the machine's)")
      ->check(real_number(0, 1e15, "flop units"));
  app.add_option("--s", r.s, "s: Mflop/s, to turn costs into times (overrides the machine's)")
      ->check(real_number(1e-6, 1e12, "Mflop/s"));
  app.add_option("--machine", r.machine_name, "g, l and s from Table 1 of the BSPlib paper (--list-machines)");
  app.add_option("--machine-p", r.machine_p, "the Table 1 row to use (default: the run's p, else the nearest)")
      ->check(whole_number(1, 100000000));
  app.add_option("--g-kind", r.g_kind, "which g of Table 1: global (total exchange, default) or local (cyclic shift)")
      ->check(CLI::IsMember({"global", "local"}));
  app.add_flag("--list-machines", r.list, "list the machines of Table 1 and exit");
  app.add_option("--work", r.work,
                 "w of a superstep: zero (default), calls (the most calls of a process) or measured (the most CPU "
                 "time of a process, from a trace recorded with --measure-work, in flops at s)")
      ->check(CLI::IsMember({"zero", "calls", "measured"}));
  app.add_option("--topology", r.topology, "distance between pids for the locality L: linear (|d-s|, default) or ring")
      ->check(CLI::IsMember({"linear", "ring"}));
  app.add_flag("--no-tag-bytes", r.no_tag, "do not count the inferred tag bytes of bsp_send");
  app.add_flag("--brief", r.brief, "one line per superstep");
  return parse_arguments(app, {args.begin() + 1, args.end()});
}

// The Table 1 machine --machine names (resolved for the run's p later), or an error printed.
bool find_machine(const ShowRequest& r, const show::MachineRow*& row) {
  row = nullptr;
  if (!r.machine_name.empty()) {
    const std::vector<std::string> names = show::match_machines(r.machine_name);
    if (names.size() != 1) {
      std::cerr << "bsp-check: error: show: --machine '" << r.machine_name << "' "
                << (names.empty() ? "matches no machine" : "is ambiguous:");
      for (std::size_t i = 0; i < names.size(); ++i) std::cerr << (i ? ", " : " ") << names[i];
      std::cerr << " (bsp-check show --list-machines)\n";
      return false;
    }
    row = &show::machine_row(names.front(), 1);
  } else if (r.machine_p) {
    std::cerr << "bsp-check: error: show: --machine-p needs --machine\n";
    return false;
  }
  if (!row && r.g.has_value() != r.l.has_value()) {
    std::cerr << "bsp-check: error: show: give both --g and --l, or --machine\n";
    return false;
  }
  return true;
}

// The analysis settings; false (the error printed) when measured work has no rate.
bool settings_for(const ShowRequest& r, const show::MachineRow* row, show::Settings& set) {
  set.word_bytes = r.word_bytes;
  set.topology = r.topology == "ring" ? show::Topology::ring : show::Topology::linear;
  set.tag_bytes = !r.no_tag;
  set.work = r.work == "calls" ? show::Work::calls : r.work == "measured" ? show::Work::measured : show::Work::zero;
  // s for measured work: the machine's or --s (the cost model's flops need a rate).
  if (set.work == show::Work::measured) {
    const std::optional<double> rate = r.s ? r.s : row ? std::optional<double>(row->s) : std::nullopt;
    if (!rate) {
      std::cerr << "bsp-check: error: show: --work measured needs s to turn CPU time into flops: --s or --machine\n";
      return false;
    }
    set.flops_per_ns = *rate / 1000.0;  // Mflop/s = 1e6 flops per 1e9 ns
  }
  return true;
}

// Reads and analyses every trace given (all of one program); the first one's reader is kept.
// False (the error printed) for a trace that cannot be shown.
bool analyse_traces(const ShowRequest& r, const show::Settings& set, std::optional<trace::Reader>& reader,
                    std::vector<show::Analysis>& runs) {
  for (const std::string& path : r.trace_paths) {
    try {
      trace::Reader t = trace::Reader::open(path);
      std::uint32_t max_pid = 0;
      for (const trace::Event& e : t.events())
        if (e.type == trace::Event::call) max_pid = std::max(max_pid, e.rec.pid);
      if (max_pid >= kMaxShownProcs) {
        std::cerr << "bsp-check: error: " << path << ": process " << max_pid << " in a call record: show handles up to "
                  << kMaxShownProcs << " processes\n";
        return false;
      }
      if (reader && t.header().program != reader->header().program) {
        std::cerr << "bsp-check: error: show: " << path << " is a trace of " << t.header().program << ", "
                  << r.trace_paths.front() << " of " << reader->header().program << ": give traces of one program\n";
        return false;
      }
      if (set.work == show::Work::measured && t.work().empty()) {
        std::cerr << "bsp-check: error: show: " << path << " has no measured work: record it with --measure-work\n";
        return false;
      }
      runs.push_back(show::analyse(t, set));
      if (!reader) reader.emplace(std::move(t));
    } catch (const trace::TraceError& e) {
      std::cerr << "bsp-check: error: " << e.what() << "\n";
      return false;
    } catch (const std::exception& e) {
      std::cerr << "bsp-check: error: " << path << ": " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

// g, l and s: the machine's row for the run's p (or --machine-p), then the command line's.
Machine machine_for(const ShowRequest& r, const show::MachineRow* row, int p) {
  Machine m;
  m.g_kind = r.g_kind;
  if (row) {
    m.row_for_p = r.machine_p ? *r.machine_p : std::max(p, 1);
    m.row = &show::machine_row(row->machine, m.row_for_p);
    m.cost = true;
    m.g = r.g_kind == "local" ? m.row->g_local : m.row->g_global;
    m.l = m.row->l;
    m.s = m.row->s;
  }
  if (r.g) m.g = *r.g, m.cost = true;
  if (r.l) m.l = *r.l, m.cost = true;
  if (r.s) m.s = *r.s;
  if (!m.cost) m.s.reset();
  return m;
}

bool write_chrome_trace(const std::string& path, const trace::Reader& reader, const show::Analysis& a,
                        const Machine& m) {
  std::ofstream out(path);
  if (out)
    out << chrome_trace(reader.header(), reader, a, m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
  if (!out) std::cerr << "bsp-check: error: show: cannot write " << path << "\n";
  return static_cast<bool>(out);
}

}  // namespace

int show_command(const std::vector<std::string>& args) {
  ShowRequest r;
  if (auto status = parse_show_options(args, r)) return *status;
  if (r.list) return list_machines();
  if (r.trace_paths.empty()) {
    std::cerr << "bsp-check: error: show: no TRACE given (usage: bsp-check show [options] TRACE...)\n";
    return 2;
  }
  const show::MachineRow* row = nullptr;
  show::Settings set;
  if (!find_machine(r, row) || !settings_for(r, row, set)) return 2;
  std::optional<trace::Reader> reader;
  std::vector<show::Analysis> runs;  // every trace given, for the counting measure
  if (!analyse_traces(r, set, reader, runs)) return 2;
  const show::Analysis& a = runs.front();
  const show::CountTable counting = show::known_counts(runs);
  const trace::Header& h = reader->header();
  const Machine m = machine_for(r, row, a.p);
  if (!r.chrome_path.empty() && !write_chrome_trace(r.chrome_path, *reader, a, m)) return 2;
  if (r.json) {
    show_json_t j = to_json(r.trace_paths.front(), h, a, set, m);
    j["traces"] = r.trace_paths;
    j["counting"] = counting_json(counting);
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    print_text(std::cout, r.trace_paths.front(), h, a, set, m, r.brief);
    print_counting(std::cout, counting);
  }
  return 0;
}

}  // namespace bspcheck::cli
