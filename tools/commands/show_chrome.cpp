// show_chrome.cpp: `bsp-check show --chrome-trace FILE`: the run as a timeline in the Trace Event
// Format (Perfetto, chrome://tracing).
#include "tools/commands/show_views.hpp"

#include <algorithm>

namespace bspcheck::cli {

using json_t = show_json_t;
using show::Analysis;
using show::ProcStep;
using show::Superstep;

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

}  // namespace bspcheck::cli
