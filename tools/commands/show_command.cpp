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

namespace bspcheck::cli {

namespace {

using json_t = nlohmann::ordered_json;
using show::Analysis;
using show::ProcStep;
using show::Superstep;

// Per-superstep tables are p wide: a (corrupted or forged) trace naming process 10^8 is refused.
constexpr std::uint32_t kMaxShownProcs = 1u << 16;

struct Machine {
  bool cost = false;  // g and l known: costs are numbers
  double g = 0, l = 0;
  std::optional<double> s;  // Mflop/s: times in seconds
  const show::MachineRow* row = nullptr;
  std::string g_kind = "global";
  int row_for_p = 0;  // the p the row was chosen for
};

const char* short_name(trace::Call c) {
  const char* n = trace::call_name(c);
  return std::string_view(n).starts_with("bsp_") ? n + 4 : n;
}

const char* ends_name(Superstep::Ends e) {
  switch (e) {
    case Superstep::Ends::sync:
      return "sync";
    case Superstep::Ends::end:
      return "end";
    case Superstep::Ends::cut:
      return "cut";
    case Superstep::Ends::local:
      return "local";
  }
  return "?";
}

std::string fmt(double v) {  // up to 6 significant digits, no trailing zeros
  if (std::isfinite(v) && std::fabs(v) < 1e15 && v == std::floor(v)) {
    std::ostringstream o;
    o << static_cast<long long>(v);
    return o.str();
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string fmt_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.4g s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.4g ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.4g us", seconds * 1e6);
  return buf;
}

double step_cost(const Superstep& st, const Machine& m) {
  return static_cast<double>(st.w) + static_cast<double>(st.h_words) * m.g + m.l;
}

std::string plural(std::uint64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}
std::string words(std::uint64_t n) { return plural(n, "word"); }

std::string calls_text(const ProcStep& ps) {
  std::string out;
  for (std::size_t c = 0; c < show::kCalls; ++c)
    if (ps.calls[c]) {
      if (!out.empty()) out += ", ";
      out += std::string(short_name(static_cast<trace::Call>(c))) + " " + std::to_string(ps.calls[c]);
    }
  return out.empty() ? "-" : out;
}

json_t calls_json(const ProcStep& ps) {
  json_t j = json_t::object();
  for (std::size_t c = 0; c < show::kCalls; ++c)
    if (ps.calls[c]) j[short_name(static_cast<trace::Call>(c))] = ps.calls[c];
  return j;
}

std::string topology_name(show::Topology t) { return t == show::Topology::ring ? "ring" : "linear"; }

json_t to_json(const std::string& path, const trace::Header& h, const Analysis& a, const show::Settings& set,
               const Machine& m) {
  json_t j;
  j["format"] = "bsp-check-show";
  j["version"] = 1;
  j["trace"] = path;
  j["program"] = h.program;
  j["args"] = h.args;
  j["tool_version"] = h.tool_version;
  j["procs_available"] = h.procs;
  j["p"] = a.p;
  j["seed"] = h.seed;
  j["strategy"] = h.strategy;
  j["checks"] = h.checks;
  j["complete"] = a.complete;
  j["calls"] = a.calls;
  j["word_bytes"] = set.word_bytes;
  j["topology"] = topology_name(set.topology);
  j["work"] = set.work == show::Work::calls ? "calls" : set.work == show::Work::measured ? "measured" : "zero";
  j["measured_work"] = a.measured;
  j["local_supersteps"] = a.local_supersteps;
  j["max_ahead"] = a.max_ahead;
  j["tag_bytes"] = set.tag_bytes;
  j["sends"] = a.sends;
  j["max_tagsize"] = a.max_tagsize;
  json_t mj = nullptr;
  if (m.cost) {
    mj = {{"g", m.g}, {"l", m.l}};
    if (m.s) mj["s"] = *m.s;
    if (m.row) {
      mj["name"] = m.row->machine;
      mj["row_p"] = m.row->p;
      mj["for_p"] = m.row_for_p;
      mj["exact"] = m.row->p == m.row_for_p;
      mj["g_kind"] = m.g_kind;
    }
  }
  j["machine"] = mj;
  j["supersteps"] = json_t::array();
  double total_cost = 0;
  for (const Superstep& st : a.steps) {
    json_t s;
    s["index"] = st.index;
    s["ends"] = ends_name(st.ends);
    s["tagsize"] = st.tagsize;
    s["processes"] = json_t::array();
    for (std::size_t pid = 0; pid < st.procs.size(); ++pid) {
      const ProcStep& ps = st.procs[pid];
      s["processes"].push_back({{"pid", pid},
                                {"calls", calls_json(ps)},
                                {"ncalls", ps.ncalls},
                                {"bytes_out", ps.bytes_out},
                                {"bytes_in", ps.bytes_in},
                                {"messages_out", ps.msgs_out},
                                {"messages_in", ps.msgs_in},
                                {"tag_bytes_out", ps.tag_bytes_out},
                                {"count_in", ps.count_in},
                                {"work_ns", a.measured ? json_t(ps.work_ns) : json_t(nullptr)}});
    }
    s["total_bytes"] = st.total_bytes;
    s["total_messages"] = st.total_msgs;
    s["h_bytes"] = st.h_bytes;
    s["h_words"] = st.h_words;
    s["h_messages"] = st.h_msgs;
    s["w"] = st.w;
    s["work_ns"] = a.measured ? json_t(st.work_ns) : json_t(nullptr);
    s["ahead"] = st.ahead;
    if (m.cost) {
      const double c = step_cost(st, m);
      total_cost += c;
      s["cost"] = c;
      if (m.s) s["time_seconds"] = c / (*m.s * 1e6);
    } else {
      s["cost"] = nullptr;
    }
    s["ebsp"] = {{"M", st.M}, {"k1", st.k1},       {"k2", st.k2},
                 {"L", st.L}, {"pairs", st.pairs}, {"linear_array_time", st.linear_time}};
    j["supersteps"].push_back(std::move(s));
  }
  json_t t = {{"supersteps", a.steps.size()}, {"W", a.W}, {"H_words", a.H_words}, {"H_bytes", a.H_bytes}, {"M", a.M}};
  t["cost"] = m.cost ? json_t(total_cost) : json_t(nullptr);
  if (m.cost && m.s) t["time_seconds"] = total_cost / (*m.s * 1e6);
  j["totals"] = t;
  return j;
}

void print_text(std::ostream& o, const std::string& path, const trace::Header& h, const Analysis& a,
                const show::Settings& set, const Machine& m, bool brief) {
  o << "trace: " << path << " (" << (a.complete ? "complete" : "cut off: no end record, the run stopped early") << ", "
    << a.calls << " BSPlib calls, " << a.steps.size() << " supersteps)\n";
  o << "program: " << (h.program.empty() ? "(in-process run)" : h.program);
  for (const std::string& arg : h.args) o << " " << arg;
  o << "\n";
  o << "p = " << a.p << " (processes seen; " << h.procs << " available), seed " << h.seed << ", strategy " << h.strategy
    << "\n";
  o << "word = " << set.word_bytes << " bytes; work w = "
    << (set.work == show::Work::calls      ? "max over processes of their calls"
        : set.work == show::Work::measured ? "max over processes of their measured CPU time, in flops at s"
                                           : "0")
    << "; locality on a "
    << (set.topology == show::Topology::ring ? "ring (distance min(|d-s|, p-|d-s|))" : "linear array (distance |d-s|)")
    << "\n";
  if (m.cost) {
    o << "machine: ";
    if (m.row) {
      o << m.row->machine << (*m.row->note ? std::string(" (") + m.row->note + ")" : std::string())
        << ", Table 1 row p = " << m.row->p;
      if (m.row->p == m.row_for_p) o << " (exact)";
      else o << " (nearest to p = " << m.row_for_p << ")";
      o << ", g " << m.g_kind << "; ";
    }
    o << "g = " << fmt(m.g) << ", l = " << fmt(m.l) << " flop units";
    if (m.s) o << ", s = " << fmt(*m.s) << " Mflop/s";
    o << "\n";
  } else {
    o << "machine: none given (--machine, or --g and --l): costs are shown as w + h*g + l\n";
  }
  if (a.local_supersteps)
    o << "supersteps: each process's own (cBSP/BSPk: processes may be in different ones); " <<
        [&] {
          std::size_t n = 0;
          for (const Superstep& st : a.steps) n += st.ends == Superstep::Ends::local;
          return plural(n, "superstep");
        }()
      << " ended without a global barrier; processes ran up to "
      << plural(static_cast<std::uint64_t>(a.max_ahead), "superstep") << " ahead of each other\n";
  if (a.measured) o << "work: measured CPU time per process and superstep (--measure-work)\n";
  if (a.sends > 0) {
    o << "note: the trace records the payload size of bsp_send, not its tag; ";
    if (!set.tag_bytes) o << "tag bytes are not counted (--no-tag-bytes)\n";
    else if (a.max_tagsize == 0)
      o << "the tag size stays 0 (no bsp_set_tagsize changes it), so sends are payload only\n";
    else
      o << "the tag bytes counted here are inferred from the bsp_set_tagsize records (tag size up to " << a.max_tagsize
        << " bytes)\n";
  }

  double total_cost = 0;
  for (const Superstep& st : a.steps) {
    const double c = m.cost ? step_cost(st, m) : 0;
    total_cost += c;
    if (brief) {
      o << "superstep " << st.index << " (" << ends_name(st.ends) << "): h = " << st.h_bytes
        << " B = " << words(st.h_words);
      if (m.cost) o << ", cost " << fmt(c);
      o << ", (M, k1, k2) = (" << st.M << ", " << st.k1 << ", " << st.k2 << "), L = " << st.L << "\n";
      continue;
    }
    o << "\nsuperstep " << st.index << " (ends at "
      << (st.ends == Superstep::Ends::sync    ? (a.local_supersteps ? "a global barrier" : "bsp_sync")
          : st.ends == Superstep::Ends::local ? "a sync without a global barrier"
          : st.ends == Superstep::Ends::end   ? "bsp_end"
                                              : "the end of the trace: cut off")
      << ")";
    if (st.ahead > 0)
      o << "; while in it, others ran up to " << plural(static_cast<std::uint64_t>(st.ahead), "superstep") << " ahead";
    o << "\n";
    o << "  pid   bytes out (msgs)   bytes in (msgs)" << (a.measured ? "   work (us)" : "") << "  calls\n";
    for (std::size_t pid = 0; pid < st.procs.size(); ++pid) {
      const ProcStep& ps = st.procs[pid];
      const std::string out = std::to_string(ps.bytes_out) + " (" + std::to_string(ps.msgs_out) + ")";
      const std::string in = std::to_string(ps.bytes_in) + " (" + std::to_string(ps.msgs_in) + ")";
      char line[160];
      std::snprintf(line, sizeof line, "  %-4zu %17s %17s  ", pid, out.c_str(), in.c_str());
      o << line;
      if (a.measured) {
        std::snprintf(line, sizeof line, "%10.1f  ", static_cast<double>(ps.work_ns) / 1e3);
        o << line;
      }
      o << calls_text(ps) << "\n";
    }
    o << "  h = " << st.h_bytes << " bytes = " << words(st.h_words) << " (" << plural(st.h_msgs, "message")
      << "); total " << st.total_bytes << " bytes in " << plural(st.total_msgs, "message") << "\n";
    o << "  BSP cost w + h*g + l = ";
    if (m.cost) {
      o << st.w << " + " << st.h_words << "*" << fmt(m.g) << " + " << fmt(m.l) << " = " << fmt(c) << " flops";
      if (m.s) o << " = " << fmt_time(c / (*m.s * 1e6));
    } else {
      o << st.w << " + " << st.h_words << "g + l";
    }
    if (a.measured) o << " (measured work: max " << fmt(static_cast<double>(st.work_ns) / 1e3) << " us)";
    o << "\n";
    o << "  E-BSP: (M, k1, k2) = (" << st.M << ", " << st.k1 << ", " << st.k2 << ") words, locality L = " << st.L
      << " (" << st.pairs << " communicating pairs)";
    if (set.topology == show::Topology::linear && st.M > 0)
      o << "; linear-array routing time min(kmin*L, M) + p - 2 = " << st.linear_time;
    o << "\n";
  }
  o << "\ntotal: " << a.steps.size() << " supersteps, W = " << a.W << ", H = " << a.H_words << " words (" << a.H_bytes
    << " bytes), M = " << a.M << " words\n";
  o << "BSP cost W + H*g + S*l = ";
  if (m.cost) {
    o << a.W << " + " << a.H_words << "*" << fmt(m.g) << " + " << a.steps.size() << "*" << fmt(m.l) << " = "
      << fmt(total_cost) << " flops";
    if (m.s) o << " = " << fmt_time(total_cost / (*m.s * 1e6)) << " at " << fmt(*m.s) << " Mflop/s";
  } else {
    o << a.W << " + " << a.H_words << "g + " << a.steps.size() << "l";
  }
  o << "\n";
}

// Trace Event Format: one track (tid) per process; a complete event per superstep per process.
// Synthetic clock: 1 us per BSPlib call; every superstep starts when the longest previous one ends
// (barriers aligned), so a process's gap before the next superstep is its wait at the barrier.
json_t chrome_trace(const trace::Header& h, const trace::Reader& r, const Analysis& a, const Machine& m) {
  json_t ev = json_t::array();
  const std::string prog = h.program.empty() ? "in-process run" : h.program;
  ev.push_back(
      {{"name", "process_name"},
       {"ph", "M"},
       {"pid", 1},
       {"tid", 0},
       {"args",
        {{"name", "bsp-check: " + prog + " (p=" + std::to_string(a.p) + ", seed " + std::to_string(h.seed) + ")"}}}});
  for (int pid = 0; pid < a.p; ++pid) {
    ev.push_back({{"name", "thread_name"},
                  {"ph", "M"},
                  {"pid", 1},
                  {"tid", pid},
                  {"args", {{"name", "process " + std::to_string(pid)}}}});
    ev.push_back(
        {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", pid}, {"args", {{"sort_index", pid}}}});
  }
  std::vector<std::uint64_t> start(a.steps.size() + 1, 0);
  for (std::size_t k = 0; k < a.steps.size(); ++k) {
    std::uint64_t d = 1;
    for (const ProcStep& ps : a.steps[k].procs) d = std::max(d, ps.ncalls);
    start[k + 1] = start[k] + d;
  }
  for (std::size_t k = 0; k < a.steps.size(); ++k) {
    const Superstep& st = a.steps[k];
    for (std::size_t pid = 0; pid < st.procs.size(); ++pid) {
      const ProcStep& ps = st.procs[pid];
      json_t args = {{"calls", calls_json(ps)},
                     {"bytes_out", ps.bytes_out},
                     {"bytes_in", ps.bytes_in},
                     {"messages_out", ps.msgs_out},
                     {"messages_in", ps.msgs_in},
                     {"h_bytes", st.h_bytes},
                     {"superstep_ends", ends_name(st.ends)}};
      if (m.cost) args["superstep_cost"] = step_cost(st, m);
      ev.push_back({{"name", "superstep " + std::to_string(st.index)},
                    {"cat", "superstep"},
                    {"ph", "X"},
                    {"pid", 1},
                    {"tid", pid},
                    {"ts", start[k]},
                    {"dur", ps.ncalls},
                    {"args", args}});
    }
    ev.push_back({{"name", "h (bytes)"}, {"ph", "C"}, {"pid", 1}, {"ts", start[k]}, {"args", {{"h", st.h_bytes}}}});
  }
  // Communication calls: an instant event at the call on the caller's track; puts and sends also
  // a flow arrow to the target's next superstep, where the data is available.
  std::size_t k = 0;
  std::vector<std::uint64_t> seen(static_cast<std::size_t>(a.p), 0);
  std::uint64_t flow_id = 0;
  for (const trace::Event& e : r.events()) {
    if (e.type == trace::Event::superstep) {
      ++k;
      std::fill(seen.begin(), seen.end(), 0);
      continue;
    }
    if (e.type != trace::Event::call || k >= a.steps.size()) continue;
    const trace::CallRecord& c = e.rec;
    const std::uint64_t ts = start[k] + seen[c.pid]++;
    const bool put_like = c.call == trace::Call::put || c.call == trace::Call::hpput || c.call == trace::Call::send;
    const bool get_like =
        c.call == trace::Call::get || c.call == trace::Call::hpget || c.call == trace::Call::direct_get;
    if (!put_like && !get_like) continue;
    std::string name = std::string(short_name(c.call)) + (put_like ? " to " : " from ") + std::to_string(c.target) +
                       ", " + std::to_string(c.size) + " B";
    ev.push_back({{"name", name},
                  {"cat", "communication"},
                  {"ph", "i"},
                  {"s", "t"},
                  {"pid", 1},
                  {"tid", c.pid},
                  {"ts", static_cast<double>(ts) + 0.5},
                  {"args", {{"call", short_name(c.call)}, {"target", c.target}, {"bytes", c.size}}}});
    if (put_like && c.target >= 0 && c.target < a.p && k + 1 < a.steps.size() &&
        a.steps[k + 1].procs[static_cast<std::size_t>(c.target)].ncalls > 0) {
      ++flow_id;
      ev.push_back({{"name", short_name(c.call)},
                    {"cat", "communication"},
                    {"ph", "s"},
                    {"id", flow_id},
                    {"pid", 1},
                    {"tid", c.pid},
                    {"ts", static_cast<double>(ts) + 0.5}});
      ev.push_back({{"name", short_name(c.call)},
                    {"cat", "communication"},
                    {"ph", "f"},
                    {"bp", "e"},
                    {"id", flow_id},
                    {"pid", 1},
                    {"tid", c.target},
                    {"ts", static_cast<double>(start[k + 1]) + 0.5}});
    }
  }
  return {
      {"traceEvents", ev},
      {"otherData", {{"generator", "bsp-check show"}, {"clock", "synthetic: 1 us per BSPlib call, barriers aligned"}}}};
}

json_t counting_json(const show::CountTable& t) {
  json_t j;
  j["runs"] = t.runs;
  j["supersteps"] = t.steps.size();
  j["known_supersteps"] = t.known_steps();
  j["known_share"] = t.steps.empty()
                         ? json_t(nullptr)
                         : json_t(static_cast<double>(t.known_steps()) / static_cast<double>(t.steps.size()));
  j["steps"] = json_t::array();
  for (const show::CountStep& st : t.steps) {
    json_t groups = json_t::array();
    for (const show::CountGroup& g : st.groups)
      groups.push_back({{"p", g.p},
                        {"runs", g.runs},
                        {"known", g.known},
                        {"counts", g.known ? json_t(g.counts) : json_t(nullptr)},
                        {"unknown_receivers", g.unknown_receivers},
                        {"missing_in_some_runs", g.missing}});
    j["steps"].push_back({{"index", st.index}, {"known", st.known}, {"groups", groups}});
  }
  return j;
}

void print_counting(std::ostream& o, const show::CountTable& t) {
  const std::size_t known = t.known_steps();
  o << "\ncounting synchronisation (cBSP's Table 3), over " << plural(t.runs, "run") << ": " << known << " of "
    << plural(t.steps.size(), "superstep") << " ("
    << (t.steps.empty()
            ? 0
            : static_cast<int>(100.0 * static_cast<double>(known) / static_cast<double>(t.steps.size()) + 0.5))
    << "%) with every receiver's incoming message count known (the same in every run of a p)";
  if (t.runs < 2) o << "; one run says nothing: give several traces (seeds, p) of the program";
  o << "\n";
  for (const show::CountStep& st : t.steps) {
    o << "  superstep " << st.index << ": " << (st.known ? "known" : "not known");
    for (const show::CountGroup& g : st.groups) {
      o << "; p = " << g.p << ": ";
      if (g.known) {
        o << "counts";
        for (std::uint64_t c : g.counts) o << " " << c;
      } else if (g.missing) {
        o << "not in every run";
      } else {
        o << "receiver" << (g.unknown_receivers.size() > 1 ? "s" : "");
        for (std::size_t i = 0; i < g.unknown_receivers.size(); ++i) o << (i ? ", " : " ") << g.unknown_receivers[i];
        o << " differ";
      }
    }
    o << "\n";
  }
}

int list_machines() {
  std::cout << "BSP machine parameters, Table 1 of the BSPlib paper (s in Mflop/s for single-precision\n"
               "float operations; l and g in flop units; g for 32-bit words):\n\n";
  std::printf("%-45s %6s %5s %9s %9s %9s\n", "machine", "s", "p", "l", "g local", "g global");
  for (const show::MachineRow& r : show::machine_table()) {
    std::string name = r.machine;
    if (*r.note) name += std::string(" (") + r.note + ")";
    std::printf("%-45s %6s %5d %9s %9s %9s\n", name.c_str(), fmt(r.s).c_str(), r.p, fmt(r.l).c_str(),
                fmt(r.g_local).c_str(), fmt(r.g_global).c_str());
  }
  return 0;
}

}  // namespace

int show_command(const std::vector<std::string>& args) {
  CLI::App app{
      "bsp-check show: a recorded run (a trace from --trace) superstep by superstep: the calls, bytes and\n"
      "messages of every process, the h-relation and BSP cost w + h*g + l, and the E-BSP\n"
      "(M, k1, k2)-relation and locality L. docs/show.md explains every number. Of several traces of\n"
      "one program (other seeds, p), the first is shown; all of them count for the counting\n"
      "synchronisation (cBSP's Table 3).\n"
      "\nUsage: bsp-check show [options] TRACE...",
      "bsp-check show"};
  std::vector<std::string> trace_paths;
  std::string trace_path, chrome_path, machine_name, topology = "linear", work = "zero", g_kind = "global";
  std::optional<double> g, l, s;
  std::optional<int> machine_p;
  std::uint64_t word_bytes = 4;
  bool json = false, list = false, no_tag = false, brief = false;
  app.add_option("TRACE", trace_paths,
                 "the trace (bsp-check run --trace FILE, or kept from a failing run); more traces of the same program "
                 "(other seeds, p) for the counting-synchronisation measure");
  app.add_flag("--json", json, "print the same data as JSON (docs/show.md) instead of text");
  app.add_option("--chrome-trace", chrome_path,
                 "write a timeline in the Trace Event Format to FILE (Perfetto, chrome://tracing)");
  app.add_option("--word-bytes", word_bytes, "bytes per word for h, M, k1, k2 (default 4: Table 1 is for 32-bit words)")
      ->check(whole_number(1, std::uint64_t{1} << 30));
  app.add_option("--g", g, "g: flop units per word communicated (overrides the machine's)")
      ->check(real_number(0, 1e12, "flop units"));
  app.add_option("--l", l, "l: flop units per barrier (overrides the machine's)")
      ->check(real_number(0, 1e15, "flop units"));
  app.add_option("--s", s, "s: Mflop/s, to turn costs into times (overrides the machine's)")
      ->check(real_number(1e-6, 1e12, "Mflop/s"));
  app.add_option("--machine", machine_name, "g, l and s from Table 1 of the BSPlib paper (--list-machines)");
  app.add_option("--machine-p", machine_p, "the Table 1 row to use (default: the run's p, else the nearest)")
      ->check(whole_number(1, 100000000));
  app.add_option("--g-kind", g_kind, "which g of Table 1: global (total exchange, default) or local (cyclic shift)")
      ->check(CLI::IsMember({"global", "local"}));
  app.add_flag("--list-machines", list, "list the machines of Table 1 and exit");
  app.add_option("--work", work,
                 "w of a superstep: zero (default), calls (the most calls of a process) or measured (the most CPU "
                 "time of a process, from a trace recorded with --measure-work, in flops at s)")
      ->check(CLI::IsMember({"zero", "calls", "measured"}));
  app.add_option("--topology", topology, "distance between pids for the locality L: linear (|d-s|, default) or ring")
      ->check(CLI::IsMember({"linear", "ring"}));
  app.add_flag("--no-tag-bytes", no_tag, "do not count the inferred tag bytes of bsp_send");
  app.add_flag("--brief", brief, "one line per superstep");
  if (auto status = parse_arguments(app, {args.begin() + 1, args.end()})) return *status;
  if (list) return list_machines();
  if (!trace_paths.empty()) trace_path = trace_paths.front();
  if (trace_path.empty()) {
    std::cerr << "bsp-check: error: show: no TRACE given (usage: bsp-check show [options] TRACE...)\n";
    return 2;
  }
  const show::MachineRow* row = nullptr;
  if (!machine_name.empty()) {
    const std::vector<std::string> names = show::match_machines(machine_name);
    if (names.size() != 1) {
      std::cerr << "bsp-check: error: show: --machine '" << machine_name << "' "
                << (names.empty() ? "matches no machine" : "is ambiguous:");
      for (std::size_t i = 0; i < names.size(); ++i) std::cerr << (i ? ", " : " ") << names[i];
      std::cerr << " (bsp-check show --list-machines)\n";
      return 2;
    }
    row = &show::machine_row(names.front(), 1);  // resolved for the run's p below
  } else if (machine_p) {
    std::cerr << "bsp-check: error: show: --machine-p needs --machine\n";
    return 2;
  }
  if (!row && g.has_value() != l.has_value()) {
    std::cerr << "bsp-check: error: show: give both --g and --l, or --machine\n";
    return 2;
  }
  show::Settings set;
  set.word_bytes = word_bytes;
  set.topology = topology == "ring" ? show::Topology::ring : show::Topology::linear;
  set.tag_bytes = !no_tag;
  set.work = work == "calls" ? show::Work::calls : work == "measured" ? show::Work::measured : show::Work::zero;

  // s for measured work: the machine's or --s (the cost model's flops need a rate).
  if (set.work == show::Work::measured) {
    const std::optional<double> rate = s ? s : row ? std::optional<double>(row->s) : std::nullopt;
    if (!rate) {
      std::cerr << "bsp-check: error: show: --work measured needs s to turn CPU time into flops: --s or --machine\n";
      return 2;
    }
    set.flops_per_ns = *rate / 1000.0;  // Mflop/s = 1e6 flops per 1e9 ns
  }

  std::optional<trace::Reader> reader;
  Analysis a;
  std::vector<Analysis> runs;  // every trace given, for the counting measure
  for (const std::string& path : trace_paths) {
    try {
      trace::Reader r = trace::Reader::open(path);
      std::uint32_t max_pid = 0;
      for (const trace::Event& e : r.events())
        if (e.type == trace::Event::call) max_pid = std::max(max_pid, e.rec.pid);
      if (max_pid >= kMaxShownProcs) {
        std::cerr << "bsp-check: error: " << path << ": process " << max_pid << " in a call record: show handles up to "
                  << kMaxShownProcs << " processes\n";
        return 2;
      }
      if (reader && r.header().program != reader->header().program) {
        std::cerr << "bsp-check: error: show: " << path << " is a trace of " << r.header().program << ", " << trace_path
                  << " of " << reader->header().program << ": give traces of one program\n";
        return 2;
      }
      if (set.work == show::Work::measured && r.work().empty()) {
        std::cerr << "bsp-check: error: show: " << path << " has no measured work: record it with --measure-work\n";
        return 2;
      }
      runs.push_back(show::analyse(r, set));
      if (!reader) reader.emplace(std::move(r));
    } catch (const trace::TraceError& e) {
      std::cerr << "bsp-check: error: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "bsp-check: error: " << path << ": " << e.what() << "\n";
      return 2;
    }
  }
  a = runs.front();
  const show::CountTable counting = show::known_counts(runs);
  const trace::Header& h = reader->header();

  Machine m;
  m.g_kind = g_kind;
  if (row) {
    m.row_for_p = machine_p ? *machine_p : std::max(a.p, 1);
    m.row = &show::machine_row(row->machine, m.row_for_p);
    m.cost = true;
    m.g = g_kind == "local" ? m.row->g_local : m.row->g_global;
    m.l = m.row->l;
    m.s = m.row->s;
  }
  if (g) m.g = *g, m.cost = true;
  if (l) m.l = *l, m.cost = true;
  if (s) m.s = *s;
  if (!m.cost) m.s.reset();

  if (!chrome_path.empty()) {
    std::ofstream out(chrome_path);
    if (!out) {
      std::cerr << "bsp-check: error: show: cannot write " << chrome_path << "\n";
      return 2;
    }
    out << chrome_trace(h, *reader, a, m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) {
      std::cerr << "bsp-check: error: show: cannot write " << chrome_path << "\n";
      return 2;
    }
  }
  if (json) {
    json_t j = to_json(trace_path, h, a, set, m);
    j["traces"] = trace_paths;
    j["counting"] = counting_json(counting);
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    print_text(std::cout, trace_path, h, a, set, m, brief);
    print_counting(std::cout, counting);
  }
  return 0;
}

}  // namespace bspcheck::cli
